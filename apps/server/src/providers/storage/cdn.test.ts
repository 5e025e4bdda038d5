import { describe, expect, it } from 'vitest';
import { rewriteToCdn } from './cdn';

const storageHosts = ['dewy-prod.s3.ap-northeast-2.amazonaws.com', 'minio.internal:9000'];
const signed =
  'https://dewy-prod.s3.ap-northeast-2.amazonaws.com/u/1/results/r.jpg?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Signature=abc%2Bdef&X-Amz-Expires=3600';

describe('rewriteToCdn', () => {
  it('leaves URLs alone when no CDN is configured', () => {
    expect(rewriteToCdn(signed, { storageHosts })).toBe(signed);
    expect(rewriteToCdn(signed, { cdnDomain: '  ', storageHosts })).toBe(signed);
  });

  it('moves a direct storage URL to the CDN host, keeping path and query', () => {
    expect(rewriteToCdn(signed, { cdnDomain: 'img.dewy.example', storageHosts })).toBe(
      'https://img.dewy.example/u/1/results/r.jpg?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Signature=abc%2Bdef&X-Amz-Expires=3600',
    );
  });

  it('accepts the CDN as an origin and matches hosts with ports, case-insensitively', () => {
    expect(rewriteToCdn('http://MINIO.internal:9000/b/k.png?x=1', { cdnDomain: 'http://cdn.local:8080', storageHosts })).toBe(
      'http://cdn.local:8080/b/k.png?x=1',
    );
  });

  it('keeps other hosts, relative URLs and garbage unchanged', () => {
    const opts = { cdnDomain: 'img.dewy.example', storageHosts };
    expect(rewriteToCdn('https://example.com/a.jpg', opts)).toBe('https://example.com/a.jpg');
    expect(rewriteToCdn('/api/storage/file?key=a&sig=b', opts)).toBe('/api/storage/file?key=a&sig=b');
    expect(rewriteToCdn('not a url', opts)).toBe('not a url');
    expect(rewriteToCdn('ftp://dewy-prod.s3.ap-northeast-2.amazonaws.com/x', opts)).toBe('ftp://dewy-prod.s3.ap-northeast-2.amazonaws.com/x');
  });
});

describe('rewriteToCdn drops the storage port', () => {
  it('a URL on localhost:5000 becomes the CDN host without the old port', () => {
    const out = rewriteToCdn('http://localhost:5000/api/storage/file?key=u%2F1%2Fa.jpg&sig=x', { cdnDomain: 'cdn.example.com', storageHosts: ['localhost:5000'] });
    expect(out).toBe('https://cdn.example.com/api/storage/file?key=u%2F1%2Fa.jpg&sig=x');
  });
});

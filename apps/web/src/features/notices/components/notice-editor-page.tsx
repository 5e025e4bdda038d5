import { NOTICES } from '@dewy/contracts';
import { useEffect, useRef, useState, type ClipboardEvent, type DragEvent, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { useSession } from '../../../lib/session';
import { useLocale } from '../../../lib/use-locale';
import { createNotice, updateNotice, uploadNoticeImage } from '../api/notices-api';
import { useInvalidateNotices, useNotice } from '../hooks/use-notices';
import { isImageFile, mergeAttachments } from '../lib/attachments';
import { imageTag, insertOnOwnLine } from '../lib/content';
import { noticeErrorText, parseNoticeId } from '../lib/errors';
import './notices.css';

type Message = { tone: 'error' | 'info'; text: string } | null;

/**
 * The notice editor (spec 002 §2/§4/§5), creating at /notice/write and editing at /notice/{id}/edit:
 * title, a 12-row HTML content box where images can be dropped, pasted or chosen (administrator only:
 * each is uploaded, then inserted as `<img>` at the caret), image attachments when creating (≤ 5,
 * duplicates by name + size + modified time ignored), pin, submit and cancel. Anyone but the
 * administrator sees the red admin-only message and a disabled submit (the server refuses them too).
 * Creating returns to the list, editing to the notice.
 */
export function NoticeEditorPage() {
  const { t } = useTranslation();
  const { lp } = useLocale();
  const navigate = useNavigate();
  const params = useParams();
  const editId = params.id === undefined ? null : parseNoticeId(params.id);
  const editing = params.id !== undefined;
  const { user } = useSession();
  const isAdmin = user?.isAdmin === true;
  const existing = useNotice(editing ? editId : null);
  const invalidate = useInvalidateNotices();

  const [title, setTitle] = useState('');
  const [content, setContent] = useState('');
  const [pinned, setPinned] = useState(false);
  const [files, setFiles] = useState<File[]>([]);
  const [loadedId, setLoadedId] = useState<number | null>(null);
  const [uploads, setUploads] = useState(0);
  const [saving, setSaving] = useState(false);
  const [message, setMessage] = useState<Message>(null);
  const [dragOver, setDragOver] = useState(false);
  const contentRef = useRef<HTMLTextAreaElement>(null);
  // The latest content for inserts that finish after an upload (state read in a closure would be stale).
  const contentValue = useRef('');
  const changeContent = (value: string) => {
    contentValue.current = value;
    setContent(value);
  };

  // Editing: the form starts from the stored notice, once (a refetch must not wipe what was typed).
  const data = existing.data;
  useEffect(() => {
    if (!data || loadedId === data.notice.id) return;
    setTitle(data.notice.title);
    contentValue.current = data.notice.content;
    setContent(data.notice.content);
    setPinned(data.notice.pinned);
    setLoadedId(data.notice.id);
  }, [data, loadedId]);

  const backTo = editing && editId !== null ? lp(`/notice/${editId}`) : lp('/notice');

  /** Uploads images one by one and inserts each at the caret (002 §5: after upload). */
  const insertImages = async (images: File[]) => {
    if (!isAdmin) {
      setMessage({ tone: 'error', text: t('notices.editor.pasteAdminOnly') });
      return;
    }
    setMessage(null);
    for (const file of images) {
      setUploads((n) => n + 1);
      try {
        const res = await uploadNoticeImage(file);
        const box = contentRef.current;
        if (!res.imageUrl || !box) throw new Error('insert');
        const next = insertOnOwnLine(contentValue.current, box.selectionStart, box.selectionEnd, imageTag(res.imageUrl, file.name));
        changeContent(next.value);
        requestAnimationFrame(() => {
          box.focus();
          box.setSelectionRange(next.caret, next.caret);
        });
      } catch (err) {
        const fallback = err instanceof Error && err.message === 'insert' ? t('notices.error.imageInsert') : t('notices.error.imageUpload');
        setMessage({ tone: 'error', text: err instanceof Error && err.message === 'insert' ? fallback : noticeErrorText(err, fallback) });
      } finally {
        setUploads((n) => n - 1);
      }
    }
  };

  const onPaste = (e: ClipboardEvent<HTMLTextAreaElement>) => {
    const images = [...e.clipboardData.files].filter(isImageFile);
    if (!images.length) return;
    e.preventDefault();
    void insertImages(images);
  };

  const onDrop = (e: DragEvent<HTMLTextAreaElement>) => {
    setDragOver(false);
    if (!e.dataTransfer.files.length) return;
    e.preventDefault();
    const dropped = [...e.dataTransfer.files];
    const images = dropped.filter(isImageFile);
    if (!images.length) {
      setMessage({ tone: 'error', text: t('notices.editor.notImages') });
      return;
    }
    void insertImages(images);
  };

  const onDragOver = (e: DragEvent<HTMLTextAreaElement>) => {
    if (![...e.dataTransfer.types].includes('Files')) return;
    e.preventDefault();
    setDragOver(true);
  };

  const addAttachments = (chosen: File[]) => {
    const merged = mergeAttachments(files, chosen);
    setFiles(merged.files);
    const notes: string[] = [];
    if (merged.notImages.length) notes.push(t('notices.editor.notImages'));
    if (merged.overLimit.length) notes.push(t('notices.editor.overLimit', { max: NOTICES.maxAttachments }));
    if (merged.duplicates.length) notes.push(t('notices.editor.duplicates'));
    setMessage(notes.length ? { tone: merged.notImages.length || merged.overLimit.length ? 'error' : 'info', text: notes.join(' ') } : null);
  };

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    if (saving || uploads > 0) return;
    if (!isAdmin) {
      setMessage({ tone: 'error', text: t('notices.error.noPermission') });
      return;
    }
    if (!title.trim() || !content.trim()) {
      setMessage({ tone: 'error', text: t('notices.error.incomplete') });
      return;
    }
    setSaving(true);
    setMessage(null);
    try {
      if (editing && editId !== null) {
        await updateNotice(editId, { title: title.trim(), content, pinned });
        await invalidate();
        void navigate(lp(`/notice/${editId}`));
      } else {
        await createNotice({ title: title.trim(), content, pinned, files });
        await invalidate();
        void navigate(lp('/notice'));
      }
    } catch (err) {
      setMessage({ tone: 'error', text: noticeErrorText(err, editing ? t('notices.error.update') : t('notices.error.create')) });
      setSaving(false);
    }
  };

  if (editing && (editId === null || existing.isError)) {
    return (
      <div className="container page notices-page" data-testid="notice-editor-page">
        <div className="notices-state card" role="alert" data-testid="notice-error">
          <p>{editId === null ? t('notices.error.notFound') : noticeErrorText(existing.error, t('notices.error.load'))}</p>
          <Link className="btn btn-secondary" to={lp('/notice')}>
            {t('notices.detail.back')}
          </Link>
        </div>
      </div>
    );
  }

  if (editing && loadedId === null) {
    return (
      <div className="container page notices-page" data-testid="notice-editor-page">
        <div className="notices-state card" aria-busy="true" data-testid="notice-loading">
          <div className="spinner" />
          <span>{t('notices.loading')}</span>
        </div>
      </div>
    );
  }

  const busy = saving || uploads > 0;

  return (
    <div className="container page notices-page" data-testid="notice-editor-page">
      <header className="notices-head">
        <h1>{editing ? t('notices.editor.titleEdit') : t('notices.editor.titleNew')}</h1>
      </header>
      <form className="card notice-form" onSubmit={(e) => void onSubmit(e)} noValidate data-testid="notice-form">
        {!isAdmin ? (
          <p className="notice-admin-only" role="alert" data-testid="notice-admin-only">
            {t('notices.editor.adminOnly')}
          </p>
        ) : null}

        <label className="notice-field">
          <span className="notice-label">{t('notices.editor.titleLabel')}</span>
          <input
            type="text"
            className="notice-input"
            value={title}
            maxLength={NOTICES.titleMax}
            onChange={(e) => setTitle(e.target.value)}
            placeholder={t('notices.editor.titlePlaceholder')}
            data-testid="notice-title-input"
          />
        </label>

        <div className="notice-field">
          <div className="notice-label-row">
            <label className="notice-label" htmlFor="notice-content">
              {t('notices.editor.contentLabel')}
            </label>
            <label className={`btn btn-secondary btn-sm notice-file-btn${!isAdmin ? ' is-disabled' : ''}`}>
              {t('notices.editor.insertImage')}
              <input
                type="file"
                accept="image/*"
                className="visually-hidden"
                disabled={!isAdmin || busy}
                onChange={(e) => {
                  const chosen = [...(e.target.files ?? [])];
                  e.target.value = '';
                  const images = chosen.filter(isImageFile);
                  if (chosen.length && !images.length) setMessage({ tone: 'error', text: t('notices.editor.notImages') });
                  if (images.length) void insertImages(images);
                }}
                data-testid="notice-image-input"
              />
            </label>
          </div>
          <textarea
            id="notice-content"
            ref={contentRef}
            className={`notice-input notice-textarea${dragOver ? ' is-drag-over' : ''}`}
            rows={12}
            value={content}
            maxLength={NOTICES.contentMax}
            onChange={(e) => changeContent(e.target.value)}
            onPaste={onPaste}
            onDrop={onDrop}
            onDragOver={onDragOver}
            onDragLeave={() => setDragOver(false)}
            placeholder={t('notices.editor.contentPlaceholder')}
            aria-describedby="notice-content-hint"
            data-testid="notice-content-input"
          />
          <p id="notice-content-hint" className="notice-hint">
            {uploads > 0 ? (
              <span className="notice-uploading" role="status" data-testid="notice-uploading">
                <span className="spinner spinner-sm" aria-hidden="true" /> {t('notices.editor.uploading')}
              </span>
            ) : (
              t('notices.editor.contentHint')
            )}
          </p>
        </div>

        <div className="notice-field">
          <span className="notice-label">{t('notices.editor.attachments', { max: NOTICES.maxAttachments })}</span>
          {editing ? (
            <p className="notice-hint">{t('notices.editor.attachmentsLocked')}</p>
          ) : (
            <>
              <label className={`btn btn-secondary btn-sm notice-file-btn${!isAdmin || files.length >= NOTICES.maxAttachments ? ' is-disabled' : ''}`}>
                {t('notices.editor.chooseFiles')}
                <input
                  type="file"
                  accept="image/*"
                  multiple
                  className="visually-hidden"
                  disabled={!isAdmin || busy}
                  onChange={(e) => {
                    const chosen = [...(e.target.files ?? [])];
                    e.target.value = '';
                    addAttachments(chosen);
                  }}
                  data-testid="notice-files-input"
                />
              </label>
              {files.length ? (
                <ul className="notice-attachments" data-testid="notice-attachments">
                  {files.map((f) => (
                    <li key={`${f.name}-${f.size}-${f.lastModified}`}>
                      <span className="notice-attachment-name">{f.name}</span>
                      <span className="notice-attachment-size">{Math.max(1, Math.round(f.size / 1024)).toLocaleString()} KB</span>
                      <button type="button" className="btn btn-ghost btn-sm" onClick={() => setFiles(files.filter((x) => x !== f))} aria-label={`${t('notices.editor.remove')}: ${f.name}`}>
                        {t('notices.editor.remove')}
                      </button>
                    </li>
                  ))}
                </ul>
              ) : null}
            </>
          )}
        </div>

        <label className="notice-check">
          <input type="checkbox" checked={pinned} onChange={(e) => setPinned(e.target.checked)} data-testid="notice-pin-input" />
          <span>{t('notices.editor.pin')}</span>
        </label>

        {message ? (
          <p className={message.tone === 'error' ? 'notices-form-error' : 'notices-form-info'} role={message.tone === 'error' ? 'alert' : 'status'} data-testid="notice-form-message">
            {message.text}
          </p>
        ) : null}

        <div className="notice-form-actions">
          <button
            type="button"
            className="btn btn-secondary"
            onClick={() => void navigate(backTo)}
            disabled={saving}
            data-testid="notice-cancel"
          >
            {t('notices.editor.cancel')}
          </button>
          <button type="submit" className="btn btn-primary" disabled={!isAdmin || busy} data-testid="notice-submit">
            {saving ? t('notices.editor.saving') : editing ? t('notices.editor.submitEdit') : t('notices.editor.submit')}
          </button>
        </div>
      </form>
    </div>
  );
}

import type { HistorySource } from '@dewy/contracts';

/**
 * My Page's history tabs (001 §2): which `source`s each reads from GET /api/image/history, and the tool
 * each tab's empty state links to (its button names that tool: issue 28, point 1).
 */
export interface HistoryTab {
  id: 'retouch' | 'generate' | 'imageEdit' | 'faceEdit';
  /** Sources merged in the tab, newest first (001 §3 lists them). */
  sources: readonly HistorySource[];
  /** The tool's page (Korean form of the path; `lp` adds /en). */
  toolPath: string;
}

export const HISTORY_TABS: readonly HistoryTab[] = [
  { id: 'retouch', sources: ['upscale'], toolPath: '/upscale' },
  // The consistency tool (002) writes `kling`; `consistency` is the other name it may carry.
  { id: 'generate', sources: ['kling', 'consistency'], toolPath: '/image-generation' },
  // Image edit results are `seedream` rows (001 §7 reads them for this tab).
  { id: 'imageEdit', sources: ['seedream'], toolPath: '/image-edit' },
  { id: 'faceEdit', sources: ['face_edit'], toolPath: '/face-edit' },
];

import type { HistorySource } from '@dewy/contracts';

/**
 * My Page's history tabs (001 §2): which `source`s each reads from GET /api/image/history, and whether
 * its tool is built yet. A tab of a tool not built shows an honest "coming soon" empty state, and shows
 * rows as soon as the history holds any (the tool lands and writes the same history).
 */
export interface HistoryTab {
  id: 'retouch' | 'generate' | 'imageEdit' | 'faceEdit';
  /** Sources merged in the tab, newest first (001 §3 lists them). */
  sources: readonly HistorySource[];
  /** The tool's page when it exists (Korean form of the path), else null: "coming soon". */
  toolPath: string | null;
}

export const HISTORY_TABS: readonly HistoryTab[] = [
  { id: 'retouch', sources: ['upscale'], toolPath: '/upscale' },
  // The consistency tool (002) writes `kling`; `consistency` is the other name it may carry.
  { id: 'generate', sources: ['kling', 'consistency'], toolPath: '/image-generation' },
  // Image edit results are `seedream` rows (001 §7 reads them for this tab).
  { id: 'imageEdit', sources: ['seedream'], toolPath: '/image-edit' },
  // The face-edit server exists; its page does not yet.
  { id: 'faceEdit', sources: ['face_edit'], toolPath: null },
];

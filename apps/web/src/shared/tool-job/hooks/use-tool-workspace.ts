import { DEFAULT_CREDITS_DISPLAY } from '@dewy/contracts';
import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../../lib/session';
import { notify } from '../../../lib/toast';
import { ensureImageCookies } from '../api/download';
import { uploadImage, type UploadKind } from '../api/upload-image';
import { takeHandoff } from '../lib/handoff';
import type { JobEventsConnection, JobProgress } from '../lib/job-events';
import { userPendingJobStore } from '../lib/pending-job';
import type { ClientToolDefinition, ImageUploadConfig, ToolMessage } from '../lib/tool-definition';
import { messageText } from '../lib/tool-messages';
import { ToolWorkspace, type WorkspaceState } from '../lib/workspace';
import { useImageDownload } from './use-image-download';
import { useImageUpload, type UploadedImage } from './use-image-upload';
import { useJobEvents, useJobSnapshot } from './use-job-events';

/** What a page can do when a history item is opened. */
export interface OpenItemHelpers {
  /** Show a stored image of known size as the input photo (the original of a past result). */
  restoreInput(stored: { imageUrl: string; width: number; height: number }): void;
}

/** What a page adds to its tool's workspace. */
export interface ToolWorkspaceOptions<Item> {
  /** A history item was opened: restore what it was made with (options, photo, prompt). */
  onOpenItem?: (item: Item, helpers: OpenItemHelpers) => void;
  /** A new input photo was uploaded (after the workspace dropped the shown result). */
  onUploaded?: (image: UploadedImage) => void;
}

/** A tool that takes no single input photo: the upload hook runs idle. */
const NO_UPLOAD: ImageUploadConfig = { kind: 'upscale-original', accepts: () => false, fileTypeKey: 'toolJob.error.uploadFailed' };

/**
 * The one workspace of every paid tool page (issue 23 point 4, decision 037): runs the tool from its
 * client definition — upload of the input photo (and a handoff from another tool), the job (created by
 * `start`, followed by the job event stream with the tool's spec polling as fallback, resumed after a
 * reload), the history (pages, load more, search, a debounced selection), errors through the tool's
 * catalogue (toasts or the page's dialog; nothing of its own when the session ended), the balance, and
 * downloads. The page keeps only its options and its layout.
 * @param definition the tool's ClientToolDefinition (a module constant)
 * @returns the state (job, history, selection, dialog message), the job's progress and the stream's
 *   connection, the upload and download hooks, the balance, and the workspace's actions
 */
export function useToolWorkspace<Item, CostInput, Api>(definition: ClientToolDefinition<Item, CostInput, Api>, options: ToolWorkspaceOptions<Item> = {}) {
  const { t } = useTranslation();
  const { user, forceSync } = useSession();
  const { client, connection } = useJobEvents();
  const optionsRef = useRef(options);
  useEffect(() => {
    optionsRef.current = options;
  });
  const tRef = useRef(t);
  useEffect(() => {
    tRef.current = t;
  }, [t]);
  const syncRef = useRef(forceSync);
  useEffect(() => {
    syncRef.current = forceSync;
  }, [forceSync]);

  const restoreRef = useRef<OpenItemHelpers['restoreInput']>(() => undefined);
  const [workspace] = useState(
    () =>
      new ToolWorkspace(definition, {
        events: client,
        toast: (message: ToolMessage) => {
          const text = messageText(tRef.current, message);
          if (text === null) return;
          const tone = 'tone' in message ? message.tone : undefined;
          notify[tone ?? 'error'](text);
        },
        balanceChanged: () => void syncRef.current(),
        pendingStore: (userId) => userPendingJobStore(userId, definition.source),
        onOpenItem: (item) => optionsRef.current.onOpenItem?.(item as Item, { restoreInput: (stored) => restoreRef.current(stored) }),
        online: () => navigator.onLine,
      }),
  );
  useEffect(() => workspace.activate(), [workspace]);
  const userId = user?.id;
  useEffect(() => workspace.setUser(userId), [workspace, userId]);
  // 001 §7: sent on load, once per signed-in user.
  useEffect(() => {
    if (userId !== undefined) void ensureImageCookies();
  }, [userId]);

  const state: WorkspaceState<Item> = useSyncExternalStore(workspace.subscribe, workspace.getState, workspace.getState);
  const job = state.job;
  const eventJobId = job.status === 'processing' ? (definition.eventJobId?.(job.jobId) ?? job.jobId) : null;
  const snapshot = useJobSnapshot(client, eventJobId);
  const progress: JobProgress | null = eventJobId ? (snapshot?.progress ?? null) : null;

  const onUploaded = useCallback(
    (image: UploadedImage) => {
      workspace.inputChanged();
      optionsRef.current.onUploaded?.(image);
    },
    [workspace],
  );
  const upload = useImageUpload(definition.upload ?? NO_UPLOAD, onUploaded);
  const inputPicked = upload.image !== null || upload.uploading;
  useEffect(() => workspace.setInputPicked(inputPicked), [workspace, inputPicked]);
  const { adopt, restore } = upload;
  useEffect(() => {
    restoreRef.current = restore;
  }, [restore]);
  const handoffTarget = definition.upload?.handoffTarget;
  useEffect(() => {
    if (!handoffTarget) return;
    const handoff = takeHandoff([handoffTarget]);
    if (handoff) void adopt(handoff.imageUrl);
  }, [handoffTarget, adopt]);

  const { downloading, download } = useImageDownload(definition.download);
  const balance = user?.credits ?? DEFAULT_CREDITS_DISPLAY;
  const canDelete = definition.history.remove !== undefined;
  const actions = useMemo(
    () => ({
      /**
       * Upload one more file of the tool (a mask, a reference tile) by the presigned flow; a failure is
       * reported through the tool's catalogue (step 'upload').
       * @returns the stored image's URL, or null when the upload failed
       */
      uploadFile: async (blob: Blob, name: string, kind: UploadKind): Promise<string | null> => {
        try {
          return (await uploadImage(blob, name, kind)).imageUrl;
        } catch (err) {
          console.warn(`[${definition.name}] upload failed`, err);
          workspace.reportError(err, 'upload');
          return null;
        }
      },
      /** Run the tool (ToolWorkspace.start). */
      start: workspace.start.bind(workspace),
      /** Back to idle (the stage's "try again"). */
      reset: workspace.reset.bind(workspace),
      /** A message the tool's way (dialog or toast). */
      say: workspace.say.bind(workspace),
      /** A toast whatever the tool's display. */
      toast: workspace.toast.bind(workspace),
      /** A failed call through the tool's catalogue ('upload' or 'run'). */
      reportError: workspace.reportError.bind(workspace),
      dismissMessage: workspace.dismissMessage.bind(workspace),
      /** A history click (debounced 300 ms, refused while a job runs). */
      selectHistory: workspace.selectHistory.bind(workspace),
      loadMore: () => void workspace.loadMore(),
      search: workspace.search.bind(workspace),
      /** Delete history items for good (issue 28, point 12); undefined for a tool whose items cannot be. */
      deleteHistory: canDelete ? (items: Item[]) => workspace.deleteHistory(items) : undefined,
      /** One item of `deleteHistory` (a history list's delete button). */
      deleteHistoryItem: canDelete ? (item: Item) => workspace.deleteHistory([item]) : undefined,
    }),
    [workspace, definition.name, canDelete],
  );

  return {
    ...actions,
    workspace,
    state,
    job,
    /** The stream's progress of the running job (null: indeterminate). */
    progress,
    connection: connection as JobEventsConnection,
    /** The create call runs or a job is processing. */
    busy: state.submitting || job.status === 'processing',
    upload,
    downloading,
    download,
    /** Credits shown for the signed-in user (000 §9: 1000 when absent). */
    balance,
    /** The message of a text message (null for a page dialog), in the page's language. */
    text: (message: ToolMessage) => messageText(t, message),
  };
}

/** shared/retouch-options — the retouch controls and their model, for the workspace and the batch page. */
export { DEFAULT_OPTIONS, retouchInputFields, updateOptions, type RetouchInputFields, type UpscaleOptions } from './options';
export { RetouchOptionsPanel, type RetouchOptionsPanelProps } from './options-panel';
export { SizeBadgeChip } from './size-badge';

/**
 * The shared mask editor (001 §2/§9): every tool that repaints a region of a photo (face edit, image
 * edit) opens it to paint the area to change and gets back a PNG mask of the photo's exact size.
 */
export { MASK_EDITOR, MaskEditor, type MaskColor, type MaskEditorProps, type MaskTool, type SavedMask } from './components/mask-editor';
export { MASK_OFF, MASK_ON, applyOp, countPainted, createMask, maskToRgba, renderOps, type Bitmask, type MaskOp } from './lib/mask-raster';
export { canRedo, canUndo, pushOp, redo, undo, undoShortcut, undoState, type UndoState } from './lib/undo-stack';
export { fitView, screenToImage, imageToScreen, type Point, type View } from './lib/view';

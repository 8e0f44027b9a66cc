/**
 * The edit rules as the dashboard imports them (`scenarist/edit-rules`, aliased to this file in
 * web/tsconfig.json, web/vite.config.ts and web/vitest.config.ts): the edit language's types, the row
 * matcher and the effect of an edit on a table's rows, the very code the server derives datasets with.
 * Everything here is free of Node, so the browser runs it as it is.
 */
export type { Cell, Column, ColumnType } from '../dataset-model.js';
export type { Condition, DataEdit, DeleteEdit, EditEffect, InsertEdit, RangeCondition, RowValues, UpdateEdit, Where } from './edit-model.js';
export { isInsert, isRange, isUpdate } from './edit-model.js';
export { rowMatcher, type RowMatcher } from './row-matcher.js';
export { editRows, scaleCell, type EditRowsOptions, type ScaledCell } from './edit-rows.js';

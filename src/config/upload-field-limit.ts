/** The `upload_max_field` setting's default: far above any real row or cell, far below a bomb. */
export const DEFAULT_MAX_FIELD_BYTES = 4 * 1024 * 1024;

/**
 * The text `import.meta.url` for the templates of a scaffolded project. It is assembled rather than
 * written out because the start-up bundle (scripts/bundle.mjs) rewrites every occurrence of that text
 * in a bundled module to the module's own location, template text included.
 */
export const MODULE_URL = ['import', 'meta', 'url'].join('.');

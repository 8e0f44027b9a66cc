/** The parameters module: the eight kinds, their builders, validation, wire descriptors, load checks. */
export {
  PARAM_KINDS,
  type BooleanParam,
  type EnumParam,
  type FloatParam,
  type IntegerParam,
  type IntervalParam,
  type IntervalValue,
  type MultiEnumParam,
  type ParamDecl,
  type ParamDecls,
  type ParamKind,
  type ParamValues,
  type StringParam,
  type TimeParam,
} from './kinds.js';
export { param } from './builders.js';
export { ParameterError } from './errors.js';
export { validateParams } from './validate.js';
export { describeParams, type ParameterDescriptor } from './describe.js';
export { checkDecls } from './check-decls.js';

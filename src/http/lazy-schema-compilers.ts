import ValidatorSelector from '@fastify/ajv-compiler';
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import type { FastifySchemaCompiler, FastifyServerOptions } from 'fastify';
import { forSerialization } from './serialization-schema.js';

type CompilersFactory = NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>;
type ValidatorFactory = NonNullable<CompilersFactory['buildValidator']>;
type SerializerFactory = NonNullable<CompilersFactory['buildSerializer']>;
type Serializer = ReturnType<ReturnType<SerializerFactory>>;
type Validator = ReturnType<FastifySchemaCompiler<unknown>>;

/**
 * Route schemas compiled on first use instead of at start-up.
 *
 * Before it listens, Fastify compiles an ajv validator for every request schema and a fast-json-stringify
 * serializer for every response schema of every route. With the error responses every route declares,
 * that was most of a server's start (1.25 of 1.45 s measured on the example domain), and `scenarist dev`
 * pays a start on each reload. Deferred, a route pays for its own schemas once, on its first request
 * (about 2 ms a schema). Nor are they compiled ahead in idle time: the example domain's 221 took
 * 0.4 s of CPU after every start (a test suite starts servers by the hundred) and left an idle server
 * 36 MB larger, for routes many deployments never call (docs/benchmarks.md). Every route schema is
 * static (TypeBox in src/http), and the route tests use each.
 */
export class LazySchemaCompilers {
  private readonly pending = new Set<() => unknown>();
  // One selector each, as Fastify keeps them: the ajv one pools its Ajv instances across the scopes
  // that ask for a compiler.
  private readonly ajvSelector = ValidatorSelector();
  private readonly stringifySelector = SerializerSelector();
  /**
   * Serializers by the shared schemas and options they are built with (as JSON: the app gives the
   * serializer no function-valued options), then by schema object.
   */
  private readonly serializersByContext = new Map<string, { readonly compile: ReturnType<SerializerFactory>; readonly bySchema: WeakMap<object, () => Serializer> }>();

  /** Fastify's own ajv validators (the same options, the same pool), each compiled when first needed. */
  readonly validators: ValidatorFactory = (externalSchemas, options) => {
    const compile = this.ajvSelector(externalSchemas, options) as unknown as (route: unknown) => Validator;
    const lazyCompile = (route: unknown): Validator => {
      const ensure = this.deferred(() => compile(route));
      // Fastify reads a failed ajv validator's `errors` from the function it was given.
      const validate: Validator = (data) => {
        const compiled = ensure();
        const outcome = compiled(data);
        validate.errors = compiled.errors;
        return outcome;
      };
      return validate;
    };
    return lazyCompile as unknown as ReturnType<ValidatorFactory>;
  };

  /**
   * Fastify's own fast-json-stringify serializers, each compiled when first needed, and once per schema.
   * A serializer depends only on its schema and the shared schemas and options it is built with
   * (fast-json-stringify-compiler ignores the route's method, URL and status). Fastify asks for one per
   * route, status and scope: the example domain's routes asked 604 times for 49 distinct error and
   * body schemas, and compiling all 604 cost 1.2 s of CPU after every start. Keyed by schema object,
   * within the same shared schemas and options, it is 49 compiles. Each is built from the schema as
   * `forSerialization` rewrites it, so that its unions need no validators.
   */
  readonly serializers: SerializerFactory = (externalSchemas, options) => {
    const context = JSON.stringify({ externalSchemas, options });
    let scope = this.serializersByContext.get(context);
    if (scope === undefined) {
      scope = { compile: this.stringifySelector(externalSchemas, options), bySchema: new WeakMap() };
      this.serializersByContext.set(context, scope);
    }
    const { compile, bySchema } = scope;
    return (route) => {
      const schema = typeof route.schema === 'object' && route.schema !== null ? route.schema : undefined;
      let ensure = schema && bySchema.get(schema);
      if (ensure === undefined) {
        ensure = this.deferred<Serializer>(() => compile({ ...route, schema: forSerialization(route.schema) }));
        if (schema) bySchema.set(schema, ensure);
      }
      const compiled = ensure;
      return (doc: unknown) => compiled()(doc);
    };
  };

  /** Schemas not compiled yet. */
  get uncompiled(): number {
    return this.pending.size;
  }

  /** `compile` run once, on the first call of the returned function (and then forgotten by `pending`). */
  private deferred<T>(compile: () => T): () => T {
    let compiled: { readonly value: T } | undefined;
    const ensure = () => {
      if (compiled === undefined) {
        compiled = { value: compile() };
        this.pending.delete(ensure);
      }
      return compiled.value;
    };
    this.pending.add(ensure);
    return ensure;
  }
}

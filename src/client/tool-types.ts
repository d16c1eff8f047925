// Types of every tool's input and output, derived from the catalogue's declarations (type-only:
// nothing of the gateway is loaded at run time). Input: what the tool's zod schema accepts
// (defaults optional). Output: what its handler returns, as JSON carries it.
import type { z } from 'zod';
import type { CatalogTools } from '../catalog/index.ts';
import type { ToolDefinition, ToolInput } from '../catalog/tool.ts';

type CatalogTool = CatalogTools[number];

export type ToolName = CatalogTool['name'];

type ToolNamed<N extends ToolName> = Extract<CatalogTool, { name: N }>;

/** What JSON makes of a value: Dates become strings, functions and undefined members vanish. */
export type Jsonified<T> = T extends Date
  ? string
  : T extends bigint
    ? never
    : T extends string | number | boolean | null
      ? T
      : T extends readonly (infer E)[]
        ? Jsonified<E>[]
        : T extends object
          ? { [K in keyof T as T[K] extends (...args: never[]) => unknown ? never : K]: Jsonified<T[K]> }
          : T;

export type ToolInputOf<N extends ToolName> = ToolNamed<N>['input'] extends ToolInput ? z.input<ToolNamed<N>['input']> : never;

export type ToolOutputOf<N extends ToolName> = ToolNamed<N> extends ToolDefinition<ToolInput, infer O> ? Jsonified<Awaited<O>> : unknown;

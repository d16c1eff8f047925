// A README's own install command ("npm install decimal.js" in a README titled "decimal.js") is what its reader runs
// first: it belongs to the skeleton, served before anything competes, so that a later section's tool install (a
// minifier's "npm install uglify-js -g", which adds more new words) does not take its place (round 13).
import type { KeyFact } from './key-facts.ts';

/** The words of a command after the program and its verb ("npm install"): what it installs. */
const INSTALL = /^\S+\s+(?:i|install|add|get)\s+(.+)$/;

/** The first install command naming the document's own package: a word of the title, or its scope ("@opentelemetry/api" for "OpenTelemetry API"). */
export function ownInstall(facts: readonly KeyFact[], title: string): KeyFact | undefined {
  const names = new Set(title.toLowerCase().match(/[\p{L}\p{N}][\p{L}\p{N}._-]{2,}/gu) ?? []);
  const isOwn = (argument: string) => [argument, ...argument.split(/[/@]/)].some((part) => names.has(part));
  return facts.find((fact) => {
    const packages = fact.kind === 'command' ? INSTALL.exec(fact.fact.replace(/^sudo\s+/, ''))?.[1] : undefined;
    return packages?.split(/\s+/).some((argument) => !argument.startsWith('-') && isOwn(argument.toLowerCase()));
  });
}

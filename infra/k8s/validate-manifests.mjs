#!/usr/bin/env node
/**
 * Checks Kubernetes manifests offline against the Kubernetes API schemas shipped in the
 * npm package `kubernetes-models` (generated from the Kubernetes OpenAPI document):
 *
 *   1. the JSON schema of the object's apiVersion/kind (types, required fields, formats),
 *      through the package's ajv validators (`model.validate()`);
 *   2. no unknown fields: the schemas allow extra properties (the API server drops or,
 *      with strict field validation, refuses them), so every object is also type-checked
 *      by the TypeScript compiler against the package's interface for its kind, whose
 *      excess-property check names a misspelt field (`livenessprobe`, `replica`).
 *
 *   node infra/k8s/validate-manifests.mjs infra/k8s/*.yaml
 *
 * Prints one JSON line per document ({file, index, kind, name, errors}) and exits 1 if
 * any document has errors, 2 on bad usage. Used by infra/k8s/manifests.test.ts.
 */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { parseAllDocuments } from 'yaml';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** kubernetes-models module of an apiVersion/kind: core `v1` objects live under `v1/`. */
function modelPath(apiVersion, kind) {
  if (typeof apiVersion !== 'string' || typeof kind !== 'string' || !/^[A-Za-z0-9./]+$/.test(apiVersion) || !/^[A-Za-z]+$/.test(kind)) return undefined;
  return `kubernetes-models/${apiVersion}/${kind}`;
}

function formatAjvErrors(err) {
  const list = err?.errors ?? err?.validationErrors;
  if (Array.isArray(list) && list.length) return list.map((e) => `${e.instancePath || '/'} ${e.message}${e.params && e.keyword === 'additionalProperties' ? ` (${e.params.additionalProperty})` : ''}`);
  return [String(err?.message ?? err)];
}

const files = process.argv.slice(2);
if (files.length === 0) {
  console.error('usage: node infra/k8s/validate-manifests.mjs FILE.yaml...');
  process.exit(2);
}

const results = [];
const virtual = new Map(); // virtual .ts file -> result it belongs to

for (const file of files) {
  const docs = parseAllDocuments(readFileSync(file, 'utf8'));
  docs.forEach((doc, index) => {
    const result = { file, index, kind: undefined, name: undefined, errors: [] };
    results.push(result);
    if (doc.errors.length) {
      result.errors.push(...doc.errors.map((e) => `YAML: ${e.message}`));
      return;
    }
    const obj = doc.toJS();
    if (obj === null || typeof obj !== 'object' || Array.isArray(obj)) {
      result.errors.push('not a Kubernetes object (a mapping with apiVersion and kind)');
      return;
    }
    result.kind = obj.kind;
    result.name = obj.metadata?.name;
    result.object = obj;
    result.module = modelPath(obj.apiVersion, obj.kind);
    if (!result.module) result.errors.push(`unknown apiVersion/kind: ${obj.apiVersion}/${obj.kind}`);
  });
}

// 1. JSON schema
for (const r of results) {
  if (!r.module) continue;
  let Model;
  try {
    Model = (await import(r.module))[r.kind];
  } catch {
    Model = undefined;
  }
  if (typeof Model !== 'function') {
    r.errors.push(`unknown apiVersion/kind: ${r.object.apiVersion}/${r.kind}`);
    r.module = undefined;
    continue;
  }
  try {
    new Model(r.object).validate();
  } catch (err) {
    r.errors.push(...formatAjvErrors(err).map((m) => `schema: ${m}`));
  }
}

// 2. unknown fields, through the TypeScript interfaces of the same package
results.forEach((r, i) => {
  if (!r.module) return;
  const fileName = path.join(ROOT, 'infra', 'k8s', `__manifest_${i}.ts`);
  const source = `import type { I${r.kind} } from ${JSON.stringify(r.module)};\nexport const manifest: I${r.kind} = ${JSON.stringify(r.object, null, 2)};\n`;
  virtual.set(fileName, { r, source });
});
if (virtual.size) {
  const options = {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    types: [],
  };
  const host = ts.createCompilerHost(options);
  const { getSourceFile, fileExists, readFile } = host;
  host.getSourceFile = (name, lang, ...rest) => {
    const v = virtual.get(path.resolve(name));
    return v ? ts.createSourceFile(name, v.source, lang) : getSourceFile.call(host, name, lang, ...rest);
  };
  host.fileExists = (name) => virtual.has(path.resolve(name)) || fileExists.call(host, name);
  host.readFile = (name) => virtual.get(path.resolve(name))?.source ?? readFile.call(host, name);
  const program = ts.createProgram([...virtual.keys()], options, host);
  for (const d of ts.getPreEmitDiagnostics(program)) {
    const v = d.file && virtual.get(path.resolve(d.file.fileName));
    const message = ts.flattenDiagnosticMessageText(d.messageText, ' ');
    if (v) v.r.errors.push(`fields: ${message}`);
    else results[0].errors.push(`type check: ${message}`);
  }
}

let failed = false;
for (const { file, index, kind, name, errors } of results) {
  if (errors.length) failed = true;
  console.log(JSON.stringify({ file, index, kind, name, errors }));
}
process.exit(failed ? 1 : 0);

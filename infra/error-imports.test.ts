/**
 * The services throw only the classes of their own `src/errors.ts`, typed by their error-code
 * catalogue: a fixed-status class imported straight from `@firma-riesgo/errors` (or `new
 * AppError(...)`) would take any code and status unchecked.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as ts from 'typescript';

const ROOT = path.resolve(__dirname, '..');
const TYPED = /^(BadRequest|Unauthorized|Forbidden|NotFound|Conflict|Gone|PayloadTooLarge|UnsupportedMediaType|Unprocessable|Locked|RateLimited|Internal|Unavailable)Error$/;

function productionFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === '__tests__' ? [] : productionFiles(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [full] : [];
  });
}

/** `file: name` for each typed class imported from the package, and each `new AppError(`. */
function untypedThrows(file: string): string[] {
  const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const where = path.relative(ROOT, file);
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier) && node.moduleSpecifier.text === '@firma-riesgo/errors') {
      const bindings = node.importClause?.namedBindings;
      if (bindings && ts.isNamedImports(bindings)) {
        for (const element of bindings.elements) if (!element.isTypeOnly && TYPED.test(element.name.text)) found.push(`${where}: imports ${element.name.text}`);
      }
    }
    if (ts.isNewExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'AppError') found.push(`${where}: new AppError(...)`);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('how the services throw', () => {
  const services = ['esign', 'wildfire'].map((name) => path.join(ROOT, 'services', name, 'src'));

  it('through src/errors.ts only: no typed class from @firma-riesgo/errors, no new AppError', () => {
    const files = services.flatMap(productionFiles).filter((f) => path.basename(f) !== 'errors.ts');
    expect(files.length).toBeGreaterThan(200);
    expect(files.flatMap(untypedThrows)).toEqual([]);
  });
});

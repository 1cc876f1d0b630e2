import type { InputLocation, ValidationIssue } from '@firma-riesgo/errors';

// C0 controls but tab, line feed and carriage return (legitimate in multi-line text).
const IN_TEXT = /[\u0000-\u0008\u000b\u000c\u000e-\u001f]/;
// A file name has no business holding any control character.
const IN_FILENAME = /[\u0000-\u001f\u007f]/;
const MAX_ISSUES = 20;

const TEXT_MSG = 'must not contain control characters (U+0000 to U+001F other than tab, line feed and carriage return)';

/**
 * Every string (and object key) in a parsed input that holds a control character: NUL
 * is refused by Postgres with a 500, and the others have no place in text a person
 * wrote. Iterative, so a deeply nested JSON body cannot overflow the stack.
 */
export function controlCharacterIssues(value: unknown, location: InputLocation): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  // Each node points at its parent: the path is only built for a bad value, so a deep
  // body costs memory in proportion to its size, not its size times its depth.
  const pending: Node[] = [{ value, key: undefined, parent: undefined }];
  for (let next = 0; next < pending.length && issues.length < MAX_ISSUES; next++) {
    const node = pending[next]!;
    if (typeof node.value === 'string') {
      if (IN_TEXT.test(node.value)) issues.push({ loc: [location, ...pathOf(node)], msg: TEXT_MSG, type: 'control_characters' });
    } else if (Array.isArray(node.value)) {
      node.value.forEach((v, i) => pending.push({ value: v, key: i, parent: node }));
    } else if (node.value !== null && typeof node.value === 'object') {
      for (const [key, v] of Object.entries(node.value)) {
        const child = { value: v, key, parent: node };
        if (IN_TEXT.test(key)) issues.push({ loc: [location, ...pathOf(child)], msg: `the name ${TEXT_MSG}`, type: 'control_characters' });
        else pending.push(child);
      }
    }
  }
  return issues;
}

interface Node {
  value: unknown;
  key: string | number | undefined;
  parent: Node | undefined;
}

function pathOf(node: Node): (string | number)[] {
  const path: (string | number)[] = [];
  for (let at: Node | undefined = node; at?.key !== undefined; at = at.parent) path.push(at.key);
  return path.reverse();
}

interface UploadedFile {
  fieldname: string;
  originalname?: string;
}

/** Uploaded files (multer's `req.file` / `req.files`, as a list or by field) whose name holds a control character. */
export function filenameIssues(req: { file?: unknown; files?: unknown }): ValidationIssue[] {
  const files: UploadedFile[] = [];
  if (req.file) files.push(req.file as UploadedFile);
  if (Array.isArray(req.files)) files.push(...(req.files as UploadedFile[]));
  else if (req.files && typeof req.files === 'object') files.push(...Object.values(req.files as Record<string, UploadedFile[]>).flat());
  return files
    .filter((f) => IN_FILENAME.test(f.originalname ?? ''))
    .map((f) => ({ loc: ['form', f.fieldname], msg: 'the file name must not contain control characters', type: 'control_characters' }));
}

/** Plain-text table for operator CLIs: columns padded to their widest cell, two spaces apart. */
export function formatTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  return [header, ...rows].map((r) => r.map((c, i) => c.padEnd(widths[i]!)).join('  ').trimEnd()).join('\n');
}

/** The bin's entry: runs the CLI with the process arguments and exits with its code. */
export function runCliMain(run: (argv: string[]) => Promise<number>): void {
  run(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}

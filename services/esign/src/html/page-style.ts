/**
 * The stylesheet of every public esign page (signing and verification), inlined in a
 * nonce'd <style> tag by page-shell.ts: the CSP allows no external or unsigned styles.
 * A TypeScript string rather than a .css file because tsc copies no assets into dist.
 */
export const PAGE_STYLE = `
:root{color-scheme:light}
body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;margin:0;color:#1a1a1a;background:#fff;line-height:1.5}
.skip{position:absolute;left:-999px}.skip:focus{left:1rem;top:1rem;background:#fff;padding:.5rem;z-index:1}
header,main{max-width:52rem;margin:0 auto;padding:1rem 1.25rem}
h1{font-size:1.6rem;margin:.25rem 0}h2{font-size:1.2rem;margin-top:1.75rem}
iframe{width:100%;height:70vh;border:1px solid #767676}
.pages{list-style:none;margin:0;padding:0}.pages img{display:block;width:100%;height:auto;border:1px solid #767676;margin:0 0 .75rem;background:#fff}
a{color:#0645ad}
button{font:inherit;padding:.6rem 1.1rem;border-radius:4px;border:2px solid var(--accent,#0b5394);background:var(--accent,#0b5394);color:#fff;cursor:pointer;min-height:44px}
button.secondary{background:#fff;color:var(--accent,#0b5394)}
.brand-logo{display:block;max-height:60px;max-width:min(240px,100%);height:auto;margin:0 0 .5rem}
input[type=text]{font:inherit;font-size:1.3rem;letter-spacing:.25em;width:9ch;padding:.35rem;border:2px solid #555;border-radius:4px}
input[type=checkbox]{width:1.5rem;height:1.5rem;margin-right:.5rem;vertical-align:top;flex:none}
:focus-visible{outline:3px solid #e37400;outline-offset:2px}
.check{display:flex;align-items:flex-start;gap:.25rem;min-height:44px}.check label{padding:.2rem 0}
.alert{border:2px solid #b00020;background:#fdecea;padding:.75rem 1rem;border-radius:4px}
.notice{border:2px solid #1e7b34;background:#e9f6ec;padding:.75rem 1rem;border-radius:4px}
canvas{display:block;width:100%;max-width:500px;height:auto;aspect-ratio:500/160;border:2px dashed #555;border-radius:4px;touch-action:none;background:#fff}
.row{display:flex;flex-wrap:wrap;gap:.75rem;align-items:center;margin:.5rem 0}
.hint{color:#444}
.field-error{color:#b00020;font-weight:600;margin:.25rem 0;flex-basis:100%}.alert a{color:#b00020}
input.name{letter-spacing:normal;font-size:1.1rem;width:100%;max-width:24rem;min-height:44px;box-sizing:border-box}
.row label{flex-basis:100%}
.doc-text{margin:0 0 1rem}.doc-text summary{cursor:pointer;min-height:44px;display:flex;align-items:center;font-weight:600}.doc-text h3{font-size:1rem;margin:1rem 0 .25rem}.page-text{white-space:pre-wrap;overflow-wrap:anywhere;margin:0}
table{border-collapse:collapse;width:100%}th,td{border:1px solid #767676;padding:.4rem .6rem;text-align:left;vertical-align:top}th{background:#f0f0f0}
code{word-break:break-all}
`;

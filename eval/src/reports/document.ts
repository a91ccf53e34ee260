/**
 * A tiny document model shared by the reports, rendered to Markdown or to a standalone
 * HTML page, so both formats always say the same thing. Text is plain; a newline inside
 * a table cell or list item becomes a line break.
 */
export type Block =
  | { type: 'heading'; level: 1 | 2 | 3; text: string }
  | { type: 'paragraph'; text: string }
  | { type: 'list'; items: string[] }
  | { type: 'table'; header: string[]; rows: string[][] };

export type ReportDocument = Block[];

function markdownInline(text: string): string {
  return text.replace(/\r?\n/g, '<br>');
}

function markdownCell(text: string): string {
  return markdownInline(text.replace(/\|/g, '\\|')) || ' ';
}

export function renderMarkdown(document: ReportDocument): string {
  const parts = document.map((block) => {
    switch (block.type) {
      case 'heading':
        return `${'#'.repeat(block.level)} ${block.text}`;
      case 'paragraph':
        return block.text;
      case 'list':
        return block.items.map((item) => `- ${item.replace(/\r?\n/g, '\n  ')}`).join('\n');
      case 'table':
        return [
          `| ${block.header.map(markdownCell).join(' | ')} |`,
          `| ${block.header.map(() => '---').join(' | ')} |`,
          ...block.rows.map((row) => `| ${row.map(markdownCell).join(' | ')} |`),
        ].join('\n');
      default: {
        const unreachable: never = block;
        throw new Error(`unknown block ${JSON.stringify(unreachable)}`);
      }
    }
  });
  return `${parts.join('\n\n')}\n`;
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function htmlInline(text: string): string {
  return escapeHtml(text).replace(/\r?\n/g, '<br>');
}

const style = `body{font:14px/1.45 system-ui,sans-serif;margin:2rem auto;max-width:1200px;padding:0 1rem;color:#1d2330}
table{border-collapse:collapse;margin:.5rem 0 1.5rem;width:100%}th,td{border:1px solid #d5d9e0;padding:.3rem .5rem;text-align:left;vertical-align:top}
th{background:#f2f4f7}h1,h2,h3{margin-top:1.6rem}li{margin:.2rem 0}`;

export function renderHtml(document: ReportDocument, title: string): string {
  const body = document.map((block) => {
    switch (block.type) {
      case 'heading':
        return `<h${block.level}>${htmlInline(block.text)}</h${block.level}>`;
      case 'paragraph':
        return `<p>${htmlInline(block.text)}</p>`;
      case 'list':
        return `<ul>${block.items.map((item) => `<li>${htmlInline(item)}</li>`).join('')}</ul>`;
      case 'table':
        return `<table><thead><tr>${block.header.map((cell) => `<th>${htmlInline(cell)}</th>`).join('')}</tr></thead><tbody>${block.rows
          .map((row) => `<tr>${row.map((cell) => `<td>${htmlInline(cell)}</td>`).join('')}</tr>`)
          .join('')}</tbody></table>`;
      default: {
        const unreachable: never = block;
        throw new Error(`unknown block ${JSON.stringify(unreachable)}`);
      }
    }
  });
  return `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title><style>${style}</style></head><body>\n${body.join('\n')}\n</body></html>\n`;
}

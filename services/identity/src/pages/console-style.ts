/**
 * The consoles' additions to the shared stylesheet: from about 1000 px the page uses the width,
 * the console's navigation beside the content; lists are tables with a header row. Below that
 * width the phone layout stays: the navigation above, each table row a card whose cells carry
 * their column's name, and of the header row only the sort links stay, as one line of links. In a table, a header or a word breaks only where a line may break (the
 * frame's break-anywhere, right for a phone's cards, split headers mid-word); code (an event's
 * representation) still breaks anywhere, and an identifier (a username, an address: class `id`)
 * stays on one line.
 */
export const CONSOLE_STYLE = `header.masthead.wide{max-width:78rem}
main:has(>.console){max-width:34rem}
table.list{width:100%;border-collapse:collapse;margin:.75rem 0;font-size:.9375rem}
table.list caption{text-align:left;color:var(--muted);padding:.25rem 0}
table.list th,table.list td{text-align:left;padding:.45rem .5rem;border-bottom:1px solid var(--border);vertical-align:top}
table.list th a{color:var(--text)}
table.list th{white-space:nowrap}
table.list a.sort{text-decoration-thickness:1px;text-underline-offset:.2em}
table.list th[aria-sort] a{font-weight:700}
form[role=search]{display:flex;flex-wrap:wrap;gap:0 .75rem;align-items:end}
form[role=search]>div{flex:1 1 12rem}
@media (min-width:62.5rem){main:has(>.console){max-width:78rem}
table.list td{overflow-wrap:break-word}
table.list td code{overflow-wrap:anywhere}
table.list td.id{white-space:nowrap}
.console{display:grid;grid-template-columns:11rem minmax(0,1fr);gap:0 2rem}
.console>nav{flex-direction:column;align-items:stretch;flex-wrap:nowrap;gap:.15rem;margin:0;padding:0 1rem 0 0;border-bottom:0;border-right:1px solid var(--border)}
.console>nav a{padding:.3rem 0}}
@media (max-width:62.49rem){table.list thead,table.list thead tr{display:flex;flex-wrap:wrap;gap:.25rem .9rem;border:0;padding:0;margin:0}
table.list th{display:block;border:0;padding:.2rem 0;font-weight:400}
table.list th:not(:has(a)){display:none}
table.list tr{display:block;border:1px solid var(--border);border-radius:8px;padding:.5rem .75rem;margin:.6rem 0}
table.list td{display:block;border:0;padding:.1rem 0}
table.list td[data-label]::before{content:attr(data-label) ": ";font-weight:600}}`;

/**
 * The one stylesheet of every page (identity's login and consent, secrets' recipient and receipt
 * pages, both services' error pages), inlined under the page's CSP nonce. Rules it keeps:
 * - light and dark themes from `prefers-color-scheme`, every text/background pair at WCAG AA
 *   contrast (4.5:1 or more) in both;
 * - a visible focus ring on every control reached by keyboard;
 * - usable from a 360 px wide phone: the card fills the screen, long words wrap, the definition
 *   list stacks.
 * - the web app's navigation, copy fields, QR code and item lists (secrets web app) live here too.
 */
export const STYLESHEET = `
:root{color-scheme:light dark;--bg:#eef0f4;--card:#fff;--text:#1d2330;--muted:#4a5263;--border:#8a92a3;--accent:#1f4fd1;--on-accent:#fff;--danger:#a31b1b;--on-danger:#fff;--error-bg:#fde8e8;--error:#8a1c1c;--ok-bg:#e3f3e8;--ok:#1c5430;--code-bg:#e8ebf7;--focus:#c25e00;--shadow:0 1px 4px rgba(0,0,0,.15)}
@media (prefers-color-scheme:dark){:root{--bg:#101318;--card:#1b2029;--text:#e7eaf0;--muted:#b3bac6;--border:#6e7787;--accent:#9bbcff;--on-accent:#0c1730;--danger:#ff9e9e;--on-danger:#3a0909;--error-bg:#3d1619;--error:#ffc2bd;--ok-bg:#12301f;--ok:#a9e5bb;--code-bg:#2a3140;--focus:#ffb35c;--shadow:0 1px 4px rgba(0,0,0,.6)}}
*,*::before,*::after{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;background:var(--bg);color:var(--text);font:1rem/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
main{max-width:34rem;margin:3rem auto;background:var(--card);padding:2rem;border-radius:10px;box-shadow:var(--shadow);overflow-wrap:anywhere}
h1{font-size:1.35rem;line-height:1.3;margin:0 0 1rem}
p{margin:.75rem 0}
a{color:var(--accent)}
label{display:block;margin:.9rem 0 .3rem;font-weight:600}
input,textarea{display:block;width:100%;padding:.6rem;font:inherit;color:var(--text);background:var(--card);border:1px solid var(--border);border-radius:6px}
input[type=checkbox]{display:inline-block;width:auto;margin:0 .5rem 0 0;vertical-align:middle}
textarea{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;min-height:6rem;resize:vertical}
form{margin:0}
button{margin:1rem .5rem 0 0;padding:.6rem 1.2rem;font:inherit;font-weight:600;border-radius:6px;border:2px solid var(--accent);background:var(--accent);color:var(--on-accent);cursor:pointer}
button.secondary{background:transparent;color:var(--accent)}
button.danger{background:var(--danger);border-color:var(--danger);color:var(--on-danger)}
button:hover{filter:brightness(1.08)}
:focus-visible{outline:3px solid var(--focus);outline-offset:2px}
input:focus,textarea:focus{outline:3px solid var(--focus);outline-offset:1px}
.note{color:var(--muted)}
.error,.ok{padding:.6rem .8rem;border-radius:6px}
.error{background:var(--error-bg);color:var(--error)}
.ok{background:var(--ok-bg);color:var(--ok)}
.actions{display:flex;flex-wrap:wrap;align-items:baseline;gap:0 .5rem}
.error code{background:none;padding:0;font-weight:600}
code{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;background:var(--code-bg);padding:0 .25rem;border-radius:3px}
ul{padding-left:1.2rem}
dl{display:grid;grid-template-columns:minmax(7rem,max-content) 1fr;gap:.35rem 1rem}
dt{font-weight:600}
dd{margin:0}
h2{font-size:1.1rem;margin:1.5rem 0 .5rem}
select{display:block;width:100%;padding:.6rem;font:inherit;color:var(--text);background:var(--card);border:1px solid var(--border);border-radius:6px}
select:focus{outline:3px solid var(--focus);outline-offset:1px}
nav{display:flex;flex-wrap:wrap;align-items:baseline;gap:.25rem 1rem;margin:-.5rem 0 1.25rem;padding-bottom:.75rem;border-bottom:1px solid var(--border)}
nav a[aria-current=page]{font-weight:700;text-decoration:none;color:var(--text)}
nav form{margin-left:auto}
button.link{margin:0;padding:0;border:none;background:none;color:var(--accent);font-weight:400;text-decoration:underline;width:auto}
.copy{display:flex;gap:.5rem;align-items:stretch}
.copy input{flex:1;min-width:0;font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
.copy button{margin:0}
figure.qr{margin:1rem 0}
figure.qr svg{display:block;width:10rem;height:10rem;border-radius:4px}
figure.qr figcaption{margin-top:.5rem}
ul.items{list-style:none;padding:0;margin:0}
ul.items>li{border:1px solid var(--border);border-radius:8px;padding:.75rem 1rem;margin:.75rem 0}
ul.items button{margin-top:.5rem}
[hidden]{display:none!important}
fieldset{border:1px solid var(--border);border-radius:6px;margin:1rem 0 0;padding:.25rem .9rem .6rem}
legend{font-weight:600;padding:0 .3rem}
fieldset label{font-weight:400;margin:.45rem 0 0}
label>input[type=checkbox],label>input[type=radio]{display:inline-block;width:auto;margin:0 .45rem 0 0;vertical-align:middle}
header.masthead{display:flex;flex-wrap:wrap;align-items:baseline;gap:.25rem 1rem;max-width:34rem;margin:1.5rem auto 0;padding:0 .25rem}
header.masthead+main{margin-top:.75rem}
.masthead .product{font-weight:700;font-size:1.15rem;color:var(--text);text-decoration:none;margin-right:auto}
.masthead nav{margin:0;padding:0;border:0;gap:.75rem}
.masthead nav a[aria-current]{font-weight:700;text-decoration:none;color:var(--text)}
.masthead form{display:flex;align-items:baseline;gap:.5rem}
@media (max-width:30rem){body:has(>header.masthead){display:flex;flex-direction:column;min-height:100vh}header.masthead{margin:0;padding:.75rem 1.25rem;background:var(--card);border-bottom:1px solid var(--border)}header.masthead+main{flex:1 0 auto;min-height:0;margin-top:0}main{margin:0;min-height:100vh;border-radius:0;box-shadow:none;padding:1.25rem}dl{grid-template-columns:1fr;gap:0}dd{margin-bottom:.6rem}button{width:100%;margin-right:0}.actions{display:block}.actions>a{display:inline-block;margin-top:1rem}button.link,.copy button{width:auto}nav form{margin-left:0}}
`
  .trim()
  .replace(/\n/g, '');

/**
 * The page's whole stylesheet (allowed by the CSP by its hash). Light and dark follow the system. The header
 * (`.top`) is sticky, and every anchor (`[id]`) keeps `--top-h` (the header's height, which the page's script
 * measures; 110 px without it) clear above it when a link scrolls to it; on a screen 640 px wide or less the
 * header scrolls away instead (`--top-h` 0) and the session list stacks each row's cells. Long words and
 * inline code wrap anywhere rather than widen the page.
 */
export const PAGE_STYLE: string = `
:root{--top-h:110px;--bg:#fff;--fg:#1f2328;--muted:#656d76;--line:#d0d7de;--card:#f6f8fa;--human:#0969da;--sdk:#8250df;--peer:#bf8700;--system:#8c959f;--autonomous:#1a7f37;--add:#dafbe1;--del:#ffebe9;--err:#cf222e;--code:#f6f8fa}
@media (prefers-color-scheme:dark){:root{--bg:#0d1117;--fg:#e6edf3;--muted:#8d96a0;--line:#30363d;--card:#161b22;--add:#12361e;--del:#3d1418;--code:#161b22}}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--fg);font:15px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif}
.visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}
.top{position:sticky;top:0;z-index:2;background:var(--bg);border-bottom:1px solid var(--line);padding:8px 16px}
.top h1{font-size:16px;margin:0 0 4px;display:flex;gap:12px;align-items:baseline;flex-wrap:wrap}
.top h1 .meta{font-size:13px;font-weight:normal;color:var(--muted)}
.timeline{display:block;width:100%;height:32px;background:var(--card);border-radius:4px}
.seg{fill:var(--system)}.seg-human{fill:var(--human)}.seg-sdk{fill:var(--sdk)}.seg-peer{fill:var(--peer)}.seg-autonomous{fill:var(--autonomous)}
.timeline a:hover .seg{opacity:.7}.compact-mark{fill:var(--err)}
.bar{display:flex;gap:12px;align-items:center;flex-wrap:wrap;margin-top:6px;font-size:13px}
.switch-label{cursor:pointer;border:1px solid var(--line);border-radius:12px;padding:1px 10px}
.switch-label .ctx-on{display:none}
#view-context:checked ~ .top .switch-label .ctx-on{display:inline}
#view-context:checked ~ .top .switch-label .ctx-off{display:none}
#view-context:checked ~ main .pre-context{display:none}
#view-context:focus-visible ~ .top .switch-label{outline:2px solid var(--human)}
#controls input[type=search]{width:16em}
main{max-width:980px;margin:0 auto;padding:8px 16px 64px}
.turn{border:1px solid var(--line);border-radius:8px;margin:14px 0;padding:8px 12px;content-visibility:auto;contain-intrinsic-size:auto 160px}
.turn.filtered-out{display:none}
.turn-head{display:flex;gap:10px;align-items:center;flex-wrap:wrap;font-size:13px;color:var(--muted)}
.turn-head .n{font-weight:600;color:var(--fg)}
.badge{display:inline-block;border-radius:10px;padding:0 8px;color:#fff;font-size:12px;background:var(--system);margin-right:6px}
.badge.author-human{background:var(--human)}.badge.author-sdk{background:var(--sdk)}.badge.author-peer{background:var(--peer)}.badge.author-autonomous{background:var(--autonomous)}
.outcome{border:1px solid var(--line);border-radius:10px;padding:0 6px}
.outcome-interrupted,.outcome-rejected,.outcome-blocked,.outcome-api_error,.outcome-max_tokens{color:var(--err);border-color:var(--err)}
.prompt{white-space:pre-wrap;font-weight:600;margin:6px 0;overflow-wrap:anywhere}
.plain{white-space:pre-wrap;overflow-wrap:anywhere;display:inline}
.atom{margin:6px 0}
[id]{scroll-margin-top:calc(var(--top-h) + 8px)}
.a-user{border-left:3px solid var(--human);padding-left:8px}
.a-system summary,.a-result{color:var(--muted);font-size:13px}
.md p{margin:6px 0}.md h1{font-size:1.3em}.md h2{font-size:1.18em}.md h3,.md h4{font-size:1.05em}.md h1,.md h2,.md h3,.md h4{margin:12px 0 4px}.md pre,pre.code,pre.out{background:var(--code);border:1px solid var(--line);border-radius:6px;padding:8px;overflow:auto;font-size:12.5px;max-height:480px;white-space:pre-wrap;overflow-wrap:anywhere}
code{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;overflow-wrap:anywhere}
.md{overflow-wrap:anywhere}
details>summary{cursor:pointer}
.tool{border:1px solid var(--line);border-radius:6px;margin:4px 0;background:var(--card)}
.tool>summary{padding:2px 8px;font-family:ui-monospace,monospace;font-size:13px;overflow-wrap:anywhere}
.tool.is-error>summary{color:var(--err)}
.tool-body{padding:4px 8px 8px;background:var(--bg)}
.state{margin-left:8px;font-size:11px;border-radius:8px;padding:0 6px;border:1px solid var(--line)}
.state.error{color:var(--err);border-color:var(--err)}
.group{margin:6px 0}.group>summary{font-size:13px;color:var(--muted)}
.group>.atom{margin-left:14px}
.thinking>summary,.thinking-empty{color:var(--muted);font-style:italic;font-size:13px}
.thinking .md{border-left:3px solid var(--line);padding-left:8px;color:var(--muted)}
.diff{border-collapse:collapse;width:100%;font:12.5px ui-monospace,monospace}
.diff td{padding:0 6px;white-space:pre-wrap;overflow-wrap:anywhere}.diff .sign{width:1em;color:var(--muted)}
.diff .add{background:var(--add)}.diff .del{background:var(--del)}.diff .hunk td{color:var(--muted);background:var(--card)}
.compaction{display:flex;align-items:center;gap:10px;color:var(--err);font-size:13px;margin:14px 0}
.compaction::before,.compaction::after{content:"";flex:1;border-top:2px dashed var(--err)}
.idle{color:var(--muted);font-size:12px;text-align:center}
.image{max-width:100%;max-height:480px;border:1px solid var(--line)}
.cut{color:var(--err);font-size:12px}
.subagent{border-left:3px solid var(--sdk);padding-left:10px;margin-top:8px}
.sub-head{color:var(--sdk);font-size:13px;margin:4px 0}
.branch-link{font-size:13px;margin:4px 0}.branch{border:1px dashed var(--line);border-radius:8px;padding:8px 12px;margin:12px 0}
.branch h3{font-size:13px;color:var(--muted);margin:0}
.parts{font-size:13px;margin-top:6px}.parts .cut{margin-left:8px}
.hit{outline:2px solid var(--peer)}
:target{outline:2px solid var(--human);outline-offset:2px}
a{color:var(--human)}
.hits{padding-left:1.5em}.hit-row{margin:8px 0}.hit-row .meta{color:var(--muted);font-size:13px}.snippet{white-space:pre-wrap;overflow-wrap:anywhere;font-size:13px}
.sessions{border-collapse:collapse;width:100%;font-size:14px}.sessions th,.sessions td{border-bottom:1px solid var(--line);padding:4px 8px;text-align:left;overflow-wrap:anywhere}.sessions .num{text-align:right}
@media (max-width:640px){:root{--top-h:0px}.top{position:static}.sessions thead{display:none}.sessions tr{display:block;border-bottom:1px solid var(--line);padding:4px 0}.sessions td{display:inline-block;border:0;padding:0 8px 0 0}.sessions td.title{display:block}.sessions td.turns::after{content:" turns"}}
.hljs-keyword,.hljs-built_in,.hljs-selector-tag{color:#cf222e}.hljs-string,.hljs-attr{color:#0a3069}.hljs-comment{color:#6e7781;font-style:italic}.hljs-number,.hljs-literal{color:#0550ae}.hljs-title,.hljs-function{color:#8250df}.hljs-addition{background:var(--add)}.hljs-deletion{background:var(--del)}
@media (prefers-color-scheme:dark){.hljs-keyword,.hljs-built_in{color:#ff7b72}.hljs-string,.hljs-attr{color:#a5d6ff}.hljs-number,.hljs-literal{color:#79c0ff}.hljs-title,.hljs-function{color:#d2a8ff}}
`;

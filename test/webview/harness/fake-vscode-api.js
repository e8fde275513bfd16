// Test stand-in for the VS Code webview host, loaded (with the page's nonce) before dist/webview.js.
// It records what the app posts, keeps setState in sessionStorage so a reload restores it like VS Code
// does, sets the theme's body class, and lets the test deliver host messages.
(function () {
  'use strict';
  const params = new URLSearchParams(location.search);
  document.body.classList.add(`vscode-${params.get('theme') || 'dark'}`);
  const posted = [];
  const csp = [];
  let acquired = false;
  document.addEventListener('securitypolicyviolation', (e) => {
    csp.push({ directive: e.violatedDirective, blocked: e.blockedURI, sample: e.sample });
  });
  window.acquireVsCodeApi = function () {
    if (acquired) throw new Error('acquireVsCodeApi called twice');
    acquired = true;
    return Object.freeze({
      postMessage: (msg) => posted.push(JSON.parse(JSON.stringify(msg))),
      getState: () => {
        const s = sessionStorage.getItem('vscode-state');
        return s === null ? undefined : JSON.parse(s);
      },
      setState: (state) => sessionStorage.setItem('vscode-state', JSON.stringify(state)),
    });
  };
  window.__harness = {
    posted,
    csp,
    dispatch: (msg) => window.dispatchEvent(new MessageEvent('message', { data: msg })),
    state: () => JSON.parse(sessionStorage.getItem('vscode-state') || 'null'),
    clearPosted: () => posted.splice(0, posted.length),
  };
})();

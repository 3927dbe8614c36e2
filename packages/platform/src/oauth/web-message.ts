/**
 * OAuth 2.0 Web Message Response Mode (draft-sakimura-oauth-wmrm §4): a page that posts the answer to
 * the window that loaded it (the hidden frame's parent, or a popup's opener) and nothing else. Each
 * target origin is exact, so the browser hands a code only to a page of that origin; an error answer
 * carries no secret and goes to whichever page embedded it.
 */
export function webMessagePage(message: Record<string, string>, targetOrigins: readonly string[]): string {
  // JSON inside a script element: `<` escaped so no value can close the element
  const json = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="referrer" content="no-referrer"><title>Signing in</title></head>
<body>
<script>
(function () {
  var message = ${json(message)};
  var origins = ${json(targetOrigins)};
  var target = window.parent !== window ? window.parent : window.opener;
  if (!target) return;
  for (var i = 0; i < origins.length; i++) target.postMessage(message, origins[i]);
})();
</script>
</body>
</html>
`;
}

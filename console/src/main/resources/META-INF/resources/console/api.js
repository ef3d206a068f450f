// The public API as the console calls it: the same origin that served the console (the gateway or the Ingress in
// front of every service), with the organisation's API key from this tab's session storage. Nothing else is ever
// contacted, and the key goes nowhere but into the Authorization header of these requests.
const KEY = 'voiceplane-api-key'; // the same name the web-call page (web-call.html) reads its key from

export const session = {
  key() {
    try { return sessionStorage.getItem(KEY); } catch (error) { return null; }
  },
  keep(key) { sessionStorage.setItem(KEY, key); },
  forget() { sessionStorage.removeItem(KEY); },
};

/** An answer of the API that is not a success: its status and the error shape's messages (always a list). */
export class ApiError extends Error {
  constructor(status, messages, body) {
    super(messages.join('; '));
    this.status = status;
    this.messages = messages;
    this.body = body;
  }
}

/** Calls {@code path} (with its query) on this origin; the parsed JSON answer, or an ApiError. */
export async function api(method, path, body, key = session.key()) {
  const headers = {'Authorization': 'Bearer ' + key, 'Accept': 'application/json'};
  // A FormData body (a file upload) sets its own multipart Content-Type.
  if (body !== undefined && !(body instanceof FormData)) headers['Content-Type'] = 'application/json';
  let answer;
  try {
    answer = await fetch(location.origin + path, {
      method, headers, body: body === undefined ? undefined : body, cache: 'no-store', credentials: 'omit',
    });
  } catch (error) {
    throw new ApiError(0, ['voiceplane does not answer at ' + location.origin + ' (' + error.message + ')'], null);
  }
  const text = await answer.text();
  let parsed = null;
  try { parsed = text ? JSON.parse(text) : null; } catch (error) { parsed = null; }
  if (!answer.ok) {
    const messages = parsed && parsed.message !== undefined ? [].concat(parsed.message).map(String)
        : [answer.status + ' ' + (answer.statusText || 'error')];
    throw new ApiError(answer.status, messages, parsed);
  }
  return parsed;
}

/** The bytes of a same-origin URL the API serves behind the key (a recording), as an object URL for the page. */
export async function objectUrl(url) {
  const target = new URL(url, location.origin);
  if (target.origin !== location.origin) return null; // the key is never sent elsewhere
  const answer = await fetch(target, {headers: {'Authorization': 'Bearer ' + session.key()}, cache: 'no-store',
    credentials: 'omit'});
  if (!answer.ok) throw new ApiError(answer.status, [answer.status + ' ' + answer.statusText], null);
  return URL.createObjectURL(await answer.blob());
}

/** A query string of the non-empty values. */
export function query(values) {
  const params = new URLSearchParams();
  Object.entries(values).forEach(([name, value]) => { if (value) params.set(name, value); });
  const text = params.toString();
  return text ? '?' + text : '';
}

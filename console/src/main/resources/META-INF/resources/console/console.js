// The console: one page, its views chosen by the address's fragment (#/assistants, #/calls/<id>, ...), each built
// from the public API's answers (api.js). Text from the API is always set as text, never as markup.
import {api, ApiError, objectUrl, query, session} from './api.js';

const $ = id => document.getElementById(id);
const view = $('view'), problem = $('problem');

/** An element with attributes (on* are listeners) and children (strings become text). */
function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  Object.entries(attributes).forEach(([name, value]) => {
    if (value === undefined || value === null || value === false) return;
    if (name.startsWith('on')) element.addEventListener(name.slice(2), value);
    else element.setAttribute(name, value === true ? '' : value);
  });
  children.flat(Infinity).forEach(child => element.append(child instanceof Node ? child : String(child ?? '')));
  return element;
}

/** The API's messages as a list in an alert (its status with them); empty when there is no error. */
function errorBox(error, advice) {
  const messages = error instanceof ApiError ? error.messages : [String(error.message || error)];
  const status = error instanceof ApiError && error.status ? error.status + ': ' : '';
  return h('div', {class: 'errors', role: 'alert'},
      h('p', {}, status + (advice || (messages.length > 1 ? 'the API refused it for these reasons:' : ''))),
      h('ul', {}, messages.map(message => h('li', {}, message))));
}

function show(...children) {
  problem.hidden = true;
  view.replaceChildren(...children);
  view.hidden = false;
}

function when(value) {
  return value ? new Date(value).toLocaleString() : '';
}

// ---- signing in ----

async function signIn(key) {
  // Any list the key may read tells whether the key is good; the API names no organisation to a key, so the
  // console says which it is only when an object read carries one (orgId).
  const assistants = await api('GET', '/assistant?limit=1', undefined, key);
  session.keep(key);
  return assistants.length && assistants[0].orgId ? assistants[0].orgId : null;
}

function signedIn(organisation) {
  document.body.dataset.state = 'signed-in';
  $('sign-in-section').hidden = true;
  $('nav').hidden = false;
  $('who').hidden = false;
  $('organisation').textContent = organisation ? 'Organisation ' + organisation : 'Signed in';
}

function signOut() {
  session.forget();
  document.body.dataset.state = 'signed-out';
  $('sign-in-section').hidden = false;
  $('nav').hidden = true;
  $('who').hidden = true;
  view.hidden = true;
  view.replaceChildren();
  problem.hidden = true;
  location.hash = '';
  $('api-key').value = '';
  $('api-key').focus();
}

$('sign-in').addEventListener('submit', async event => {
  event.preventDefault();
  const key = $('api-key').value.trim();
  if (!key) {
    problem.replaceChildren('Give the API key of your organisation.');
    problem.hidden = false;
    return;
  }
  try {
    signedIn(await signIn(key));
    $('api-key').value = '';
    if (!location.hash || location.hash === '#' || location.hash === '#/') location.hash = '#/assistants';
    else route();
  } catch (error) {
    problem.replaceChildren(errorBox(error, error.status === 401 ? 'That key was refused: check it and try again.'
        : 'Could not sign in:'));
    problem.hidden = false;
  }
});
$('sign-out').addEventListener('click', signOut);

// ---- assistants, squads, tools, phone numbers, credentials, files ----

const NEW_ASSISTANT = {
  name: 'My assistant',
  firstMessage: 'Hello! How can I help?',
  model: {provider: 'openai', model: 'gpt-4o-mini',
    messages: [{role: 'system', content: 'You are a helpful assistant.'}]},
  voice: {provider: 'openai', voiceId: 'alloy'},
  transcriber: {provider: 'deepgram', model: 'nova-2', language: 'en'},
};

/**
 * What the console does with each resource of the API: its path, how one is named in a list, the JSON a new one
 * starts from (none: it is not created here), and how a change is saved: a merge (PATCH), or not at all (a
 * credential is replaced whole with its secret, which the API never answers, so it is created or deleted here).
 */
const KINDS = {
  assistants: {path: '/assistant', one: 'assistant', title: 'Assistants', save: 'PATCH', template: NEW_ASSISTANT,
    label: item => item.name},
  squads: {path: '/squad', one: 'squad', title: 'Squads', save: 'PATCH',
    template: {name: 'My squad', members: [{assistantId: '<an assistant id>'}]}, label: item => item.name},
  tools: {path: '/tool', one: 'tool', title: 'Tools', save: 'PATCH',
    template: {type: 'function', function: {name: 'lookup_order', description: 'Finds an order by its number.',
      parameters: {type: 'object', properties: {number: {type: 'string'}}, required: ['number']}},
      server: {url: 'https://example.com/tools'}},
    label: item => (item.function && item.function.name) || item.type},
  'phone-numbers': {path: '/phone-number', one: 'phone number', title: 'Phone numbers', save: 'PATCH',
    template: {provider: 'twilio', number: '+15550100000', twilioAccountSid: 'AC…', twilioAuthToken: '…',
      assistantId: '<an assistant id>'}, label: item => item.number || item.name},
  credentials: {path: '/credential', one: 'credential', title: 'Credentials', save: null,
    template: {provider: 'openai', apiKey: '…', name: 'OpenAI'}, label: item => item.name || item.provider},
  files: {path: '/file', one: 'file', title: 'Files', save: 'PATCH', template: null,
    label: item => item.name},
};

/** Files: one chosen file sent as the multipart part "file" (POST /file); the list again once it is stored. */
function uploadForm() {
  const input = h('input', {id: 'upload-file', type: 'file', name: 'file'});
  const outcome = h('div', {id: 'upload-outcome', 'aria-live': 'polite'});
  const upload = async event => {
    event.preventDefault();
    outcome.replaceChildren();
    if (!input.files.length) {
      outcome.replaceChildren(h('p', {class: 'errors', role: 'alert'}, 'Choose a file first.'));
      return;
    }
    const form = new FormData();
    form.append('file', input.files[0], input.files[0].name);
    try {
      const stored = await api('POST', '/file', form);
      await listView(KINDS.files);
      $('upload-outcome').replaceChildren(h('p', {class: 'notice'}, 'Uploaded ' + stored.name + ' (' + stored.id
          + (stored.status ? ', ' + stored.status : '') + ').'));
    } catch (error) {
      outcome.replaceChildren(errorBox(error));
    }
  };
  return h('form', {id: 'upload', novalidate: true, onsubmit: upload},
      h('label', {for: 'upload-file'}, 'Upload a file'), input,
      h('button', {type: 'submit'}, 'Upload'), outcome);
}

async function listView(kind) {
  const items = await api('GET', kind.path + '?limit=100');
  show(h('h1', {}, kind.title),
      kind === KINDS.files ? uploadForm() : '',
      kind.template ? h('p', {}, h('a', {href: '#/' + kindName(kind) + '/new', id: 'new-item'}, 'New ' + kind.one))
          : '',
      items.length === 0 ? h('p', {class: 'empty'}, 'None yet.') :
      h('table', {id: 'items'},
          h('thead', {}, h('tr', {}, h('th', {}, 'Name'), h('th', {}, 'Id'), h('th', {}, 'Updated'))),
          h('tbody', {}, items.map(item => h('tr', {},
              h('td', {}, h('a', {href: '#/' + kindName(kind) + '/' + item.id}, kind.label(item) || '(no name)')),
              h('td', {}, h('code', {}, item.id)),
              h('td', {}, when(item.updatedAt)))))));
}

function kindName(kind) {
  return Object.keys(KINDS).find(name => KINDS[name] === kind);
}

/**
 * One resource as JSON. A new one is created as written (POST); an existing one is saved as a merge (PATCH), where
 * the kind allows it, or only read. What the API answers is all that is shown: it never answers a secret.
 */
async function itemView(kind, id) {
  const creating = id === 'new';
  const item = creating ? kind.template : await api('GET', kind.path + '/' + encodeURIComponent(id));
  const editable = {...item};
  ['id', 'orgId', 'createdAt', 'updatedAt'].forEach(name => delete editable[name]);
  const writable = creating || kind.save;
  const text = h('textarea', {id: 'item-json', spellcheck: 'false', readonly: !writable,
    'aria-describedby': 'item-json-hint'});
  text.value = JSON.stringify(editable, null, 2);
  const outcome = h('div', {id: 'outcome', 'aria-live': 'polite'});
  const save = async event => {
    event.preventDefault();
    outcome.replaceChildren();
    let body;
    try {
      body = JSON.stringify(JSON.parse(text.value));
    } catch (error) {
      outcome.replaceChildren(errorBox(error, 'That is not JSON:'));
      return;
    }
    try {
      const saved = await api(creating ? 'POST' : kind.save, creating ? kind.path : kind.path + '/' + id, body);
      if (creating) {
        location.hash = '#/' + kindName(kind) + '/' + saved.id;
      } else {
        await itemView(kind, id);
        $('outcome').replaceChildren(h('p', {class: 'notice'}, 'Saved.'));
      }
    } catch (error) {
      outcome.replaceChildren(errorBox(error));
    }
  };
  const remove = async () => {
    if (!confirm('Delete the ' + kind.one + ' ' + (kind.label(item) || id) + '?')) return;
    try {
      await api('DELETE', kind.path + '/' + id);
      location.hash = '#/' + kindName(kind);
    } catch (error) {
      outcome.replaceChildren(errorBox(error, error.status === 409
          ? 'It cannot be deleted while something still uses it (a phone number, a squad, or a call that has not'
            + ' ended, for instance); the API says:' : undefined));
    }
  };
  const isAssistant = kind === KINDS.assistants;
  const hint = creating ? 'Created as written (POST ' + kind.path + ').'
      : kind.save ? 'Saved as a merge (PATCH): a property set to null is removed.'
      : 'Read only: a ' + kind.one + ' is replaced whole, secret included, which the API never shows back.';
  show(h('h1', {}, creating ? 'New ' + kind.one : kind.label(item) || kind.one),
      creating ? '' : h('dl', {class: 'fields'}, h('dt', {}, 'Id'), h('dd', {}, h('code', {id: 'item-id'}, id)),
          h('dt', {}, 'Created'), h('dd', {}, when(item.createdAt)),
          h('dt', {}, 'Updated'), h('dd', {}, when(item.updatedAt))),
      !creating && isAssistant ? h('p', {}, h('a', {href: '#/talk/' + id, id: 'talk'}, 'Talk to this assistant'),
          ' · ', h('a', {href: '#/calls?assistantId=' + id}, 'Its calls')) : '',
      h('form', {id: 'item-form', novalidate: true, onsubmit: save},
          h('label', {for: 'item-json'}, 'Configuration (JSON)'),
          h('p', {class: 'hint', id: 'item-json-hint'}, hint),
          text,
          outcome,
          writable ? h('button', {type: 'submit', id: 'save'}, creating ? 'Create' : 'Save') : '',
          creating ? '' : h('button', {type: 'button', id: 'delete', onclick: remove}, 'Delete')));
}

// ---- calls ----

const STATUSES = ['scheduled', 'queued', 'ringing', 'in-progress', 'forwarding', 'ended'];

async function callsView(params) {
  const filters = {assistantId: params.get('assistantId') || '', status: params.get('status') || '',
    from: params.get('from') || '', to: params.get('to') || ''};
  // The API filters by assistant and dates; the status is filtered here, on the page of calls it answered.
  const calls = await api('GET', '/call' + query({limit: '100', assistantId: filters.assistantId,
    createdAtGe: filters.from && new Date(filters.from).toISOString(),
    createdAtLe: filters.to && new Date(filters.to).toISOString()}));
  const shown = filters.status ? calls.filter(call => call.status === filters.status) : calls;
  const input = (name, label, type, value) => [h('label', {for: 'filter-' + name}, label,
      h('br'), h('input', {id: 'filter-' + name, name, type, value}))];
  const filter = event => {
    event.preventDefault();
    const form = new FormData(event.target);
    const next = new URLSearchParams();
    for (const [name, value] of form) if (value) next.set(name, value);
    location.hash = '#/calls' + (next.toString() ? '?' + next : '');
  };
  show(h('h1', {}, 'Calls'),
      h('form', {class: 'filters', id: 'call-filters', onsubmit: filter},
          input('assistantId', 'Assistant id', 'text', filters.assistantId),
          h('label', {for: 'filter-status'}, 'Status', h('br'),
              h('select', {id: 'filter-status', name: 'status'}, h('option', {value: ''}, 'any'),
                  STATUSES.map(status => h('option', {value: status, selected: status === filters.status}, status)))),
          input('from', 'Created from', 'datetime-local', filters.from),
          input('to', 'Created until', 'datetime-local', filters.to),
          h('button', {type: 'submit'}, 'Filter')),
      shown.length === 0 ? h('p', {id: 'no-calls'}, 'No calls.') :
      h('table', {id: 'calls'},
          h('thead', {}, h('tr', {}, ['Call', 'Type', 'Status', 'Ended reason', 'Created'].map(t => h('th', {}, t)))),
          h('tbody', {}, shown.map(call => h('tr', {},
              h('td', {}, h('a', {href: '#/calls/' + call.id}, call.id)),
              h('td', {}, call.type || ''), h('td', {}, call.status || ''), h('td', {}, call.endedReason || ''),
              h('td', {}, when(call.createdAt)))))));
}

function json(value) {
  return h('pre', {}, JSON.stringify(value, null, 2));
}

async function callView(id) {
  const call = await api('GET', '/call/' + encodeURIComponent(id));
  const messages = (call.messages || []).filter(message => message && (message.message || message.content));
  const recordings = h('div', {id: 'recordings'});
  show(h('h1', {}, 'Call ' + call.id),
      h('dl', {class: 'fields', id: 'call-fields'},
          [['Status', call.status], ['Ended reason', call.endedReason], ['Type', call.type],
            ['Assistant', call.assistantId], ['Started', when(call.startedAt)], ['Ended', when(call.endedAt)],
            ['Cost', call.cost === undefined || call.cost === null ? '' : String(call.cost)]]
              .map(([name, value]) => [h('dt', {}, name),
                h('dd', {'data-field': name.toLowerCase().replace(' ', '-')}, value || '')])),
      h('h2', {}, 'Messages'),
      messages.length === 0 ? h('p', {id: 'no-messages'}, call.transcript ? '' : 'No messages.') :
      h('ol', {class: 'transcript', id: 'messages'}, messages.map(message => h('li', {},
          h('span', {class: 'who'}, (message.role || '') + ': '), message.message || message.content))),
      call.transcript ? [h('h2', {}, 'Transcript'), h('pre', {id: 'transcript'}, call.transcript)] : '',
      h('h2', {}, 'Recordings'), recordings,
      h('h2', {}, 'Cost breakdown'), call.costBreakdown ? json(call.costBreakdown) : h('p', {}, 'None.'),
      h('h2', {}, 'Analysis'), call.analysis ? json(call.analysis) : h('p', {}, 'None.'));
  const found = [['Mono', call.recordingUrl], ['Stereo', call.stereoRecordingUrl]].filter(([, url]) => url);
  if (found.length === 0) {
    recordings.append(h('p', {}, 'No recording.'));
    return;
  }
  for (const [label, url] of found) {
    const audio = h('audio', {controls: true, preload: 'metadata', 'aria-label': label + ' recording'});
    recordings.append(h('p', {}, label, h('br'), audio));
    try {
      const local = await objectUrl(url);
      if (local) audio.src = local;
      else recordings.append(h('p', {}, h('a', {href: url, rel: 'noreferrer'}, 'Open the ' + label.toLowerCase()
          + ' recording where it is stored')));
    } catch (error) {
      recordings.append(errorBox(error, 'The ' + label.toLowerCase() + ' recording could not be loaded:'));
    }
  }
}

// ---- talking to an assistant ----

/**
 * The web-call page (docs/examples/web-call.html, copied to this directory by the build) in a frame of this origin:
 * it reads the API key from this tab's session storage and the assistant from its address, and holds the call.
 */
function talkView(id) {
  show(h('h1', {}, 'Talk to the assistant'),
      h('p', {}, h('a', {href: '#/assistants/' + id}, 'Back to the assistant')),
      h('iframe', {class: 'talk', id: 'talk-frame', title: 'Web call', allow: 'microphone; autoplay',
        src: 'web-call.html?assistantId=' + encodeURIComponent(id)}));
}

// ---- routing ----

async function route() {
  if (!session.key()) return;
  const [path, search] = location.hash.replace(/^#/, '').split('?');
  const parts = path.split('/').filter(Boolean);
  const params = new URLSearchParams(search || '');
  try {
    if (parts[0] === 'calls' && parts[1]) await callView(parts[1]);
    else if (parts[0] === 'calls') await callsView(params);
    else if (parts[0] === 'talk' && parts[1]) talkView(parts[1]);
    else if (KINDS[parts[0]] && parts[1]) await itemView(KINDS[parts[0]], parts[1]);
    else if (KINDS[parts[0]]) await listView(KINDS[parts[0]]);
    else await listView(KINDS.assistants);
    document.body.dataset.view = parts.join('/') || 'assistants';
  } catch (error) {
    if (error.status === 401) {
      signOut();
      problem.replaceChildren(errorBox(error, 'The API no longer takes this key; sign in again.'));
      problem.hidden = false;
      return;
    }
    show(h('h1', {}, 'Something went wrong'), errorBox(error));
  }
}

window.addEventListener('hashchange', route);

async function resume() {
  const key = session.key();
  if (!key) {
    $('api-key').focus();
    return;
  }
  try {
    signedIn(await signIn(key));
    route();
  } catch (error) {
    signOut();
  }
}

resume();

// Drives the distribution's Chromium for the browser test (WebCallPageIT, deploy/local) through playwright-core.
// One JSON command a line on standard input, one JSON answer a line on standard output, in order:
//   {"id":1,"op":"launch","executable":"/usr/bin/chromium","args":[...]}   starts the browser
//   {"id":2,"op":"open","url":"http://..."}                                 a page in a context of its own: {"value":<page>}
//   {"id":3,"op":"click","page":1,"selector":"#call","force":false}
//   {"id":4,"op":"fill","page":1,"selector":"#api-key","value":"..."}
//   {"id":5,"op":"press","page":1,"selector":"#web-call-url","key":"Enter"}
//   {"id":6,"op":"evaluate","page":1,"expression":"document.body.dataset.state"}  the expression's value, as JSON
//   {"id":7,"op":"errors","page":1}                                        the page's uncaught errors so far
//   {"id":8,"op":"close","page":1}
//   {"id":9,"op":"quit"}
// An answer is {"id","ok":true,"value"} or {"id","ok":false,"error"}. The page's console goes to standard error.
import { chromium } from 'playwright-core';
import readline from 'node:readline';

const STEP_TIMEOUT = 15_000;
const pages = new Map();
let browser;
let nextPage = 1;

async function run(command) {
  switch (command.op) {
    case 'launch': {
      browser = await chromium.launch({
        executablePath: command.executable,
        headless: true,
        chromiumSandbox: false,
        args: command.args,
        timeout: 60_000,
      });
      return browser.version();
    }
    case 'open': {
      const context = await browser.newContext();
      const page = await context.newPage();
      const id = nextPage++;
      const errors = [];
      page.on('pageerror', error => errors.push(String(error && error.stack || error)));
      page.on('console', message => process.stderr.write(`[page ${id}] ${message.type()}: ${message.text()}\n`));
      pages.set(id, { page, context, errors });
      await page.goto(command.url, { timeout: STEP_TIMEOUT });
      return id;
    }
    case 'click':
      return pageOf(command).click(command.selector, { force: !!command.force, timeout: STEP_TIMEOUT });
    case 'fill':
      return pageOf(command).fill(command.selector, command.value, { timeout: STEP_TIMEOUT });
    case 'press':
      return pageOf(command).press(command.selector, command.key, { timeout: STEP_TIMEOUT });
    case 'evaluate':
      return pageOf(command).evaluate(command.expression);
    case 'errors':
      return pages.get(command.page).errors;
    case 'close': {
      const { context } = pages.get(command.page);
      pages.delete(command.page);
      return context.close();
    }
    case 'quit':
      if (browser) await browser.close();
      return null;
    default:
      throw new Error('unknown op ' + command.op);
  }
}

function pageOf(command) {
  const entry = pages.get(command.page);
  if (!entry) throw new Error('no page ' + command.page);
  return entry.page;
}

const lines = readline.createInterface({ input: process.stdin });
for await (const line of lines) {
  if (!line.trim()) continue;
  const command = JSON.parse(line);
  let answer;
  try {
    const value = await run(command);
    answer = { id: command.id, ok: true, value: value === undefined ? null : value };
  } catch (error) {
    answer = { id: command.id, ok: false, error: String(error && error.message || error) };
  }
  process.stdout.write(JSON.stringify(answer) + '\n');
  if (command.op === 'quit') break;
}
if (browser && browser.isConnected()) await browser.close();

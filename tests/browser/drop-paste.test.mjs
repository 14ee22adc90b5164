// Curves also come in by drag and drop and by pasting text anywhere on the page.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { useServerAndBrowser, openPage, waitForFit, EXAMPLES } from './harness.mjs';

const env = useServerAndBrowser(before, after);

test('dropping files and pasting text add curves', async () => {
  const { context, page, errors } = await openPage(env.browser, env.url);
  try {
    await waitForFit(page);
    const csv = await readFile(path.join(EXAMPLES, 'mpl/csv_25/wsdcon_3.csv'), 'utf8');

    // Drop a file on the data panel.
    await page.evaluate((text) => {
      const dt = new DataTransfer();
      dt.items.add(new File([text], 'dropped_wsdcon_3.csv', { type: 'text/csv' }));
      const zone = document.querySelector('#drop-zone');
      zone.dispatchEvent(new DragEvent('dragenter', { bubbles: true, dataTransfer: dt }));
      zone.dispatchEvent(new DragEvent('dragover', { bubbles: true, cancelable: true, dataTransfer: dt }));
      zone.dispatchEvent(new DragEvent('drop', { bubbles: true, cancelable: true, dataTransfer: dt }));
    }, csv);
    const dropped = page.locator('#curve-list [data-curve-name="dropped_wsdcon_3"]');
    await dropped.waitFor();
    assert.match(await dropped.textContent(), /95 points, steps 2,176–14,144 · LR from the file/);
    assert.equal(await page.evaluate(() => document.body.classList.contains('dragging')), false);

    // Paste text outside any form field.
    await page.evaluate(() => {
      const dt = new DataTransfer();
      dt.setData('text/plain', 'step,loss\n1000,3.6\n2000,3.3\n3000,3.2\n');
      document.body.dispatchEvent(new ClipboardEvent('paste', { bubbles: true, cancelable: true, clipboardData: dt }));
    });
    await page.locator('#curve-list [data-curve-name="pasted"]').waitFor();
    // The dropped file replaced the example; the paste came beside it.
    assert.equal(await page.locator('#curve-list [data-curve-name]').count(), 2);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

import { launchBrowser, startServer, openPage, waitForFit } from './harness.mjs';
const n = Number(process.argv[2]);
const idle = Number(process.argv[3]);
const server = await startServer();
const browser = await launchBrowser();
for (let i = 0; i < n; i++) {
  const { context, page } = await openPage(browser, server.url);
  await waitForFit(page);
  await new Promise((r) => setTimeout(r, idle));
  await context.close();
}
await browser.close();
await server.stop();

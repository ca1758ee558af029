import { reactRouter } from '@react-router/dev/vite';
import tailwindcss from '@tailwindcss/vite';
import browserslistToEsbuild from 'browserslist-to-esbuild';
import { defineConfig } from 'vite';

/**
 * The browser support policy (`browserslist` in package.json, decision 016) as the build's targets:
 * JavaScript is lowered to it, and CSS too (`cssTarget` follows `target`; the CSS minifier adds the
 * prefixes and fallbacks the policy needs, such as `-webkit-backdrop-filter` before Safari 18).
 * Samsung Internet has no target name here; its versions in the policy are Chromium's of the time.
 */
const browsers = browserslistToEsbuild();

export default defineConfig({
  plugins: [tailwindcss(), reactRouter()],
  build: {
    target: browsers,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            {
              name: 'framework',
              test: /node_modules[\\/](react|react-dom|react-router|scheduler|cookie|set-cookie-parser)[\\/]/,
              priority: 2,
            },
            {
              name: 'marketing',
              test: /app[\\/](components[\\/](layout[\\/](?!dashboard-header)|feedback[\\/]|ui[\\/])|components[\\/]forms[\\/](fields|use-form-check)|routes[\\/](site[\\/]layout|locale-layout)|meta|seo[\\/]json-ld|seo[\\/]structured-data)/,
              priority: 1,
            },
          ],
        },
      },
    },
  },
});

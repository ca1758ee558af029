import { reactRouter } from '@react-router/dev/vite';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig } from 'vite';

export default defineConfig({
  plugins: [tailwindcss(), reactRouter()],
  build: {
    target: 'es2022',
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            { name: 'framework', test: /node_modules[\\/](react|react-dom|react-router|scheduler|cookie|set-cookie-parser)[\\/]/, priority: 2 },
            { name: 'marketing', test: /app[\\/](components[\\/](layout|feedback|ui)[\\/]|components[\\/]forms[\\/](fields|use-form-check)|routes[\\/](site[\\/]layout|locale-layout)|meta|seo[\\/]json-ld|seo[\\/]structured-data)/, priority: 1 },
          ],
        },
      },
    },
  },
});

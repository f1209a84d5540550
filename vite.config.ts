import { reactRouter } from '@react-router/dev/vite';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig, type Plugin } from 'vite';

/**
 * The browser build keeps zod's full API (`zod`: the account page, the trial form) in a copy of zod's modules apart from
 * the one `zod/mini` uses (the arbitrage feed, the site configuration every page reads). Rollup tree-shakes a module
 * once for the whole build and zod's schema kinds live in one module, so with one copy every page's first load carried
 * every kind the full API's users need (emails, URLs, unions…): ~9 KB gzip more on the arbitrage page
 * (docs/decisions/168). The copies never meet: no browser module puts a schema of one inside a schema of the other.
 */
function zodClassicApart(): Plugin {
  const TAG = '?zod-classic';
  return {
    name: 'sharpline:zod-classic-apart',
    apply: 'build',
    enforce: 'pre',
    applyToEnvironment: (environment) => environment.name === 'client',
    async resolveId(source, importer, options) {
      const fromClassic = importer?.endsWith(TAG) ?? false;
      if (!fromClassic && source !== 'zod' && source !== 'zod/v4') return null;
      const resolved = await this.resolve(source, fromClassic ? importer!.slice(0, -TAG.length) : importer, {
        ...options,
        skipSelf: true,
      });
      if (!resolved || resolved.external || !resolved.id.includes('/node_modules/zod/')) return resolved;
      return { ...resolved, id: `${resolved.id}${TAG}` };
    },
  };
}

export default defineConfig({
  plugins: [tailwindcss(), reactRouter(), zodClassicApart()],
  build: {
    target: 'es2022',
    assetsInlineLimit: 0,
    // terser makes the home page's JavaScript ~4 % smaller than esbuild's minifier (docs/decisions/004).
    minify: 'terser',
    terserOptions: {
      module: true,
      ecma: 2020,
      compress: { passes: 3, pure_getters: true },
      format: { comments: false },
    },
  },
  server: {
    host: '127.0.0.1',
    proxy: {
      '/api': 'http://127.0.0.1:3000',
      '/tools': 'http://127.0.0.1:3000',
      '/v1': 'http://127.0.0.1:3000',
    },
  },
});

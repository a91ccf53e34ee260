import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

const apiTarget = 'http://127.0.0.1:3000';

/**
 * Readable names for the lazy vendor chunks (otherwise named after some `index` or `dist`
 * module inside them), so the build output says what each costs. Naming only: which code
 * goes where is still decided by the dynamic imports.
 */
const vendorChunkNames: Array<[RegExp, string]> = [
  [/[\\/]node_modules[\\/]recharts[\\/]/, 'recharts'],
  [/[\\/]node_modules[\\/]@codemirror[\\/]lang-python[\\/]/, 'lang-python'],
  [/[\\/]node_modules[\\/]@codemirror[\\/]lang-javascript[\\/]/, 'lang-javascript'],
  [/[\\/]node_modules[\\/]@codemirror[\\/]view[\\/]/, 'codemirror'],
  [/[\\/]node_modules[\\/]@lezer[\\/]lr[\\/]/, 'lezer'],
];

function chunkFileName(chunk: { moduleIds: readonly string[] }): string {
  for (const [pattern, name] of vendorChunkNames) {
    if (chunk.moduleIds.some((id) => pattern.test(id))) return `assets/${name}-[hash].js`;
  }
  return 'assets/[name]-[hash].js';
}

/** Text assets worth compressing; source maps are fetched by developers only, fonts are compressed already. */
const compressible = /\.(?:js|mjs|css|html|svg|json|txt|webmanifest)$/;

/**
 * Writes a brotli (`.br`, quality 11) and a gzip (`.gz`) copy beside every compressible file of
 * the build, once, so the server sends them as they are (@fastify/static `preCompressed`) instead
 * of compressing on every request or not at all (issue 27 item 5).
 */
function precompress(): Plugin {
  return {
    name: 'tutorloop-precompress',
    apply: 'build',
    writeBundle(options) {
      const root = options.dir ?? 'dist';
      const walk = (folder: string): string[] =>
        readdirSync(folder).flatMap((name) => {
          const file = path.join(folder, name);
          return statSync(file).isDirectory() ? walk(file) : [file];
        });
      for (const file of walk(root)) {
        if (!compressible.test(file)) continue;
        const content = readFileSync(file);
        if (content.length < 1024) continue;
        writeFileSync(`${file}.br`, brotliCompressSync(content, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11, [zlibConstants.BROTLI_PARAM_SIZE_HINT]: content.length } }));
        writeFileSync(`${file}.gz`, gzipSync(content, { level: 9 }));
      }
    },
  };
}

export default defineConfig({
  plugins: [react(), precompress()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    rollupOptions: { output: { chunkFileNames: chunkFileName } },
  },
  server: {
    proxy: {
      '/api': { target: apiTarget, changeOrigin: false },
      // The session WebSocket lives at /sessions/ws/{id}; the hash router never uses real paths.
      '/sessions': { target: apiTarget, ws: true, changeOrigin: false },
    },
  },
  preview: {
    proxy: {
      '/api': { target: apiTarget },
      '/sessions': { target: apiTarget, ws: true },
    },
  },
});

import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

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

export default defineConfig({
  plugins: [react()],
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

import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { serviceWorkerPlugin } from './scripts/service-worker-plugin.ts';
import { pdfjsAssets } from './pdfjs-assets.ts';

/**
 * React changes rarely and every page needs it: one long-cached chunk. Everything else (antd included)
 * is split by the routes that use it, so that the reader loads only the components it renders
 * (one antd chunk made the reader route 580 KB gzip; split, under 400 KB — bench/reader.ts).
 */
const VENDOR_GROUPS: { name: string; test: RegExp }[] = [
  { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/ },
];

export default defineConfig({
  plugins: [react(), serviceWorkerPlugin(), pdfjsAssets()],
  base: '/',
  server: {
    port: 5173,
    proxy: { '/api': { target: 'http://127.0.0.1:3000', changeOrigin: true } },
  },
  preview: {
    port: 4173,
    proxy: { '/api': { target: 'http://127.0.0.1:3000', changeOrigin: true } },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 1200,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: VENDOR_GROUPS.map((group, index) => ({ ...group, priority: VENDOR_GROUPS.length - index })),
        },
      },
    },
  },
});

import { reactRouter } from '@react-router/dev/vite';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig } from 'vite';

export default defineConfig({
  plugins: [tailwindcss(), reactRouter()],
  // The hot-reload socket listens on loopback only (it opens on every interface otherwise).
  server: { host: '127.0.0.1', hmr: { host: '127.0.0.1' } },
  build: { target: 'es2022', cssMinify: true },
});

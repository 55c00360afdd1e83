import type { ReactNode } from 'react';
import { paletteCss } from '../lib/view/palette';
import './globals.css';

export const metadata = { title: 'kvscope', description: 'What a language model sees and keeps while it runs an agent loop' };

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <head>
        {/* The shared palette (lib/view/palette.ts) as CSS variables: canvases and CSS read the same colours. */}
        <style>{paletteCss()}</style>
      </head>
      <body>{children}</body>
    </html>
  );
}

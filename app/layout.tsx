import type { ReactNode } from 'react';
import './globals.css';

export const metadata = { title: 'kvscope', description: 'What a language model sees and keeps while it runs an agent loop' };

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  );
}

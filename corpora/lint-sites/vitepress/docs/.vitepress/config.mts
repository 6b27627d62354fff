import { defineConfig } from 'vitepress'

// Read as text, never run.
export default defineConfig({
  title: 'VitePress fixture',
  srcDir: 'src',
  cleanUrls: true,
  themeConfig: {
    nav: [{ text: 'Guide', link: '/guide/getting-started' }]
  }
})

import { chromium } from 'playwright-core';
const [src, y, h, out] = process.argv.slice(2);
const b = await chromium.launch({ executablePath: '/usr/bin/chromium' });
const p = await b.newPage({ viewport: { width: 390, height: Number(h) } });
const data = (await import('node:fs')).readFileSync(src).toString('base64');
await p.setContent(`<body style="margin:0"><div style="width:390px;height:${h}px;overflow:hidden"><img src="data:image/png;base64,${data}" style="margin-top:-${y}px"></div></body>`);
await p.screenshot({ path: out });
await b.close();

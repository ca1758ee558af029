import type { SeedBlogPost } from '../blogs.ts';

export const caseStudyEightStores: SeedBlogPost = {
  slug: 'case-study-restaurant-group-eight-stores',
  category: 'case-studies',
  tags: ['case-study', 'multi-store', 'kds', 'pos'],
  author: 'Mandy Wong',
  publishedAt: '2026-10-20T10:00:00+08:00',
  coverImage: '/images/blog/eight-stores.svg',
  coverAlt: {
    en: 'A map with eight restaurant pins connected to one dashboard',
    'zh-hk': '地圖上八個餐廳標記連接到同一個管理介面',
    'zh-cn': '地图上八个餐厅标记连接到同一个管理后台',
  },
  title: {
    en: 'Case study: one system for a restaurant group with 8 stores',
    'zh-hk': '個案分享：八間分店的餐飲集團，如何用一套系統管理',
    'zh-cn': '案例分享：拥有八家门店的餐饮集团如何用一套系统管理',
  },
  summary: {
    en: 'A noodle and rice group in Hong Kong moved eight stores from three different tills to one POS with kitchen displays and QR ordering. What changed in the kitchen, at the counter and in the head office.',
    'zh-hk':
      '一個香港粉麵飯集團，將八間分店由三種不同收銀機，轉用同一套配備廚房顯示屏及 QR 點餐的 POS。看看廚房、櫃枱和總部有甚麼改變。',
    'zh-cn':
      '一家香港粉面饭餐饮集团，把八家门店从三种不同的收银机，统一换成配备厨房显示屏和 QR 点餐的 POS。看看厨房、柜台和总部发生了什么变化。',
  },
  body: {
    en: `<p>The group opened its first noodle shop in Sham Shui Po in 2014 and had eight stores across Kowloon and the New Territories by 2025. Each opening had brought its own till: three different systems, menus kept by hand in each branch and sales reports assembled in a spreadsheet every Monday.</p>
<h2>The problem</h2>
<p>A price change took a week to reach every store, and one branch always missed it. Paper tickets were lost during the lunch rush, and head office could not see until the next week that a new dish was not selling. Staff moving between branches had to learn a different till at each one.</p>
<h2>What they changed</h2>
<ul><li>One POS in all eight stores, with a central menu: a price changed at head office reaches every branch within minutes.</li><li>Kitchen displays at the noodle, wok and drinks stations, replacing printed tickets.</li><li>QR ordering at every table, and one payment terminal per counter for cards, Octopus, FPS and e-wallets.</li></ul>
<p>The rollout took one store per week. New hardware arrived within 2 working days of each order, and staff were trained on site before the lunch service.</p>
<h2>The results after six months</h2>
<p>Orders now take about 9 seconds of staff time at tables with QR ordering. Kitchen workflow efficiency rose by around 20%, and with fewer people needed at the counter during peaks, staff costs fell by about 10%. The finance manager no longer builds a spreadsheet: the Monday report covers all eight stores, by dish and by hour.</p>
<blockquote>We used to find out on Friday what went wrong on Monday. Now we see it the same afternoon. — Operations director</blockquote>
<h2>What other groups can learn</h2>
<p>Standardise the menu before changing systems, start with the busiest store so problems appear early, and give each branch manager the same report head office sees. One system is only as good as the habits built around it.</p>`,
    'zh-hk': `<p>這個集團 2014 年在深水埗開設第一間粉麵店，到 2025 年已在九龍及新界擁有八間分店。每開一間新店就多一部收銀機：結果有三套不同系統，各分店各自人手更新餐牌，每個星期一再用試算表拼湊銷售報告。</p>
<h2>遇到的問題</h2>
<p>調整一次價錢，要成個星期先更新到所有分店，而且總有一間會漏咗。午市繁忙時紙單經常唔見，總部要到下個星期先知道新菜式賣得唔好。員工調去其他分店幫手，又要重新學另一部收銀機。</p>
<h2>作出的改變</h2>
<ul><li>八間分店統一使用同一套 POS，並由總部集中管理餐牌：總部改價，幾分鐘內所有分店同步更新。</li><li>麵檔、鑊氣爐頭及水吧都裝上廚房顯示屏，取代打印紙單。</li><li>每張枱都設有 QR 點餐，每個櫃枱一部付款終端機，收信用卡、八達通、轉數快及電子錢包。</li></ul>
<p>整個轉換以每星期一間分店的進度推行。每次訂購的新硬件都在 2 個工作天內送到，員工亦在午市前於店內完成培訓。</p>
<h2>六個月後的成果</h2>
<p>設有 QR 點餐的枱，每張單只需約 9 秒員工時間。廚房工作效率提升約 20%，繁忙時段櫃枱所需人手減少，員工成本下降約 10%。財務經理唔使再整試算表：星期一的報告已涵蓋八間分店，按菜式及時段分析。</p>
<blockquote>以前要到星期五先知道星期一出咗甚麼問題，而家即日下晝就睇到。——營運總監</blockquote>
<h2>其他集團可以借鏡的地方</h2>
<p>轉系統之前先統一餐牌；由最忙的分店開始，問題可以及早浮現；並讓每位分店經理睇到同總部一樣的報表。系統再好，都要配合良好的工作習慣。</p>`,
    'zh-cn': `<p>这家集团 2014 年在深水埗开设第一家粉面店，到 2025 年已在九龙和新界拥有八家门店。每开一家新店就多一台收银机：结果有三套不同的系统，各门店各自手工更新菜单，每周一再用电子表格拼凑销售报告。</p>
<h2>遇到的问题</h2>
<p>调整一次价格，要花一周才能更新到所有门店，而且总有一家会漏掉。午市高峰时纸质单据经常丢失，总部要到下一周才知道新菜品卖得不好。员工调到其他门店帮忙，又要重新学习另一台收银机。</p>
<h2>做出的改变</h2>
<ul><li>八家门店统一使用同一套 POS，由总部集中管理菜单：总部改价，几分钟内所有门店同步更新。</li><li>面档、炒锅和水吧都装上厨房显示屏，取代打印单据。</li><li>每张餐桌都提供 QR 点餐，每个柜台一台收款终端，支持银行卡、八达通、转数快和电子钱包。</li></ul>
<p>整个切换以每周一家门店的进度推进。每次订购的新硬件都在 2 个工作日内送达，员工也在午市前于店内完成培训。</p>
<h2>六个月后的成果</h2>
<p>提供 QR 点餐的餐桌，每张订单只需约 9 秒员工时间。厨房工作效率提升约 20%，高峰时段柜台所需人手减少，员工成本下降约 10%。财务经理不必再做电子表格：周一的报告已涵盖八家门店，并按菜品和时段分析。</p>
<blockquote>以前要到周五才知道周一出了什么问题，现在当天下午就能看到。——运营总监</blockquote>
<h2>其他集团可以借鉴的地方</h2>
<p>换系统之前先统一菜单；从最忙的门店开始，问题可以尽早暴露；并让每位门店经理看到和总部一样的报表。系统再好，也要配合良好的工作习惯。</p>`,
  },
};

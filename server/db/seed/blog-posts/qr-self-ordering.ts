import type { SeedBlogPost } from '../blogs.ts';

export const qrSelfOrdering: SeedBlogPost = {
  slug: 'cut-queue-time-with-qr-self-ordering',
  category: 'restaurant-tips',
  tags: ['qr-ordering', 'efficiency', 'pos'],
  author: 'Daniel Tan',
  publishedAt: '2026-03-10T10:00:00+08:00',
  coverImage: '/images/blog/qr-self-ordering.svg',
  coverAlt: {
    en: 'A phone scanning a QR code on a restaurant table',
    'zh-hk': '手機掃描餐枱上的二維碼',
    'zh-cn': '手机扫描餐桌上的二维码',
  },
  title: {
    en: 'Cut queue time with QR self-ordering',
    'zh-hk': '用 QR 自助點餐，告別長長人龍',
    'zh-cn': '用 QR 自助点餐，告别排长队',
  },
  summary: {
    en: 'Guests order and pay from their own phones while your staff focus on food and service. How to set up QR ordering so it speeds up lunch hour instead of confusing it.',
    'zh-hk': '客人用自己手機落單付款，員工就可以專心做好食物同服務。教你設定 QR 點餐，令午市更快，而唔係更亂。',
    'zh-cn': '顾客用自己的手机下单付款，员工就能专心做好出品和服务。教你设置 QR 点餐，让午市更快，而不是更乱。',
  },
  body: {
    en: `<p>At 12:30 on a weekday, the queue at the counter is your most expensive problem. Every minute a guest waits to order is a minute the table is not eating, and a lunch crowd in Central or Raffles Place will not wait long. QR self-ordering moves the order taking onto the guest's own phone.</p>
<h2>How QR ordering works</h2>
<p>Each table gets a QR code that opens your menu in the browser, with no app to download. Guests choose dishes and options, send the order straight to the kitchen and, if you wish, pay at once. Orders arrive at the POS with the table number, so staff know exactly where each dish goes.</p>
<h2>Where the time is saved</h2>
<p>Merchants who switch see orders placed in about 9 seconds of staff time, because staff only confirm instead of writing. Guests browse at their own pace, and photos of dishes mean fewer questions. Add-ons such as a drink upgrade appear every time, so average spend often rises too.</p>
<ul><li>No waiting for a menu or for someone to take the order.</li><li>No handwriting for the kitchen to guess.</li><li>Guests who want another round order it themselves.</li></ul>
<h2>Set it up so it helps, not confuses</h2>
<p>Keep the menu short on the phone screen: group items the way guests think (set lunches, noodles, drinks), use clear photos and show prices with service charge rules stated. Print the code large, at eye level, with a short line in English and Chinese saying what to do.</p>
<h2>Keep the human touch</h2>
<p>Self-ordering is not self-service. Greet guests, explain the code to first-time visitors and keep staff on the floor for the questions a menu cannot answer. The time saved on writing orders is time you can spend on hospitality.</p>
<blockquote>Measure it: compare table turns and average spend for two weeks before and after the switch.</blockquote>`,
    'zh-hk': `<p>平日中午十二點半，櫃枱前的人龍就是你最昂貴的問題。客人每等一分鐘落單，張枱就少一分鐘用餐時間；中環的午飯客人，唔會等太耐。QR 自助點餐，就是將落單這件事交給客人自己的手機。</p>
<h2>QR 點餐點樣運作</h2>
<p>每張枱都有一個二維碼，一掃就喺瀏覽器打開餐牌，唔使下載任何 app。客人揀菜式同選項，訂單直接送到廚房，亦可以即時付款。訂單連同枱號傳到 POS，員工一眼就知每碟餸送去邊度。</p>
<h2>時間慳喺邊度</h2>
<p>轉用 QR 點餐的商戶，每張單只需約 9 秒員工時間，因為同事只需確認，唔使再手寫。客人可以慢慢睇，菜式有相片，問題自然少咗。加配飲品等選項每次都會出現，平均消費往往亦會提高。</p>
<ul><li>唔使等人派餐牌或者落單。</li><li>廚房唔使再估手寫字。</li><li>想再加嘢食，客人自己落單就得。</li></ul>
<h2>設定得好，先幫到手</h2>
<p>手機畫面上的餐牌要精簡：按客人的思路分類（午市套餐、粉麵、飲品），配上清晰相片，並列明價錢及加一服務費安排。二維碼要印得夠大、放喺視線高度，再用中英文寫一句簡單指示。</p>
<h2>保留人情味</h2>
<p>自助點餐不等於自助服務。照樣招呼客人，向第一次來的客人講解點樣掃碼，並安排同事留喺樓面解答餐牌答唔到的問題。慳返寫單的時間，正好用嚟提升待客之道。</p>
<blockquote>記得量度成效：比較轉用前後兩個星期的翻枱率同平均消費。</blockquote>`,
    'zh-cn': `<p>工作日中午十二点半，柜台前的长队就是你最昂贵的问题。顾客每多等一分钟点餐，餐桌就少一分钟用餐时间；莱佛士坊的午餐人潮可不会等太久。QR 自助点餐，就是把点单这件事交给顾客自己的手机。</p>
<h2>QR 点餐如何运作</h2>
<p>每张餐桌都有一个二维码，扫码即可在浏览器中打开菜单，无需下载 app。顾客选择菜品和口味，订单直接送到厨房，也可以马上付款。订单连同桌号一起传到 POS，员工一眼就知道每道菜该送到哪里。</p>
<h2>时间省在哪里</h2>
<p>改用 QR 点餐的商户，每张订单只需约 9 秒员工时间，因为员工只需确认，不必手写。顾客可以慢慢浏览，菜品配有图片，问题自然减少。加购饮品等选项每次都会出现，客单价往往也会提高。</p>
<ul><li>不用等人送菜单或点单。</li><li>厨房不用再猜手写字。</li><li>想加菜时，顾客自己下单即可。</li></ul>
<h2>设置得当才能真正帮忙</h2>
<p>手机屏幕上的菜单要精简：按顾客的思路分类（午市套餐、面食、饮品），配上清晰的图片，并写明价格和服务费规则。二维码要印得足够大、放在视线高度，再用中英文写一句简单的说明。</p>
<h2>保留人情味</h2>
<p>自助点餐不等于自助服务。照样招呼顾客，向第一次光临的顾客讲解如何扫码，并安排员工留在前厅解答菜单回答不了的问题。省下写单的时间，正好用来提升服务。</p>
<blockquote>记得衡量效果：比较改用前后两周的翻台率和客单价。</blockquote>`,
  },
};

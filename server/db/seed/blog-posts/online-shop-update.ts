import type { SeedBlogPost } from '../blogs.ts';

export const onlineShopUpdate: SeedBlogPost = {
  slug: 'online-shop-and-pos-one-stock-list',
  category: 'product-news',
  tags: ['online-shop', 'product-update', 'inventory'],
  author: 'Karen Lee',
  publishedAt: '2026-11-10T10:00:00+08:00',
  coverImage: '/images/blog/online-shop.svg',
  coverAlt: {
    en: 'A laptop showing an online shop next to a shop counter',
    'zh-hk': '手提電腦顯示網店，旁邊是店舖櫃枱',
    'zh-cn': '笔记本电脑显示网店，旁边是门店柜台',
  },
  title: {
    en: 'New: your online shop and your POS now share one stock list',
    'zh-hk': '新功能：網店與 POS 共用同一份庫存',
    'zh-cn': '新功能：网店与 POS 共用同一份库存',
  },
  summary: {
    en: 'Products, prices and stock now stay in step between your counter and your online shop. Orders placed online appear at the POS, ready to pick up or deliver.',
    'zh-hk': '貨品、價錢和庫存現在會在門市與網店之間自動同步。網上訂單會直接出現在 POS，方便自取或送貨。',
    'zh-cn': '商品、价格和库存现在会在门店与网店之间自动同步。网上订单会直接出现在 POS 上，方便自提或配送。',
  },
  body: {
    en: `<p>Many of our merchants sell in two places: at the counter and online. Until now that often meant two product lists, two stock counts and a sale online of an item that had just sold out in the shop. This update joins them.</p>
<h2>One product list</h2>
<p>Add a product once, with its photos, variants and price, and choose whether it appears online. A price change at the POS updates the online shop at the same moment, and promotions can run in both places or only in one.</p>
<h2>Stock that stays right</h2>
<p>Every sale, online or in the shop, reduces the same stock count. When the last item sells at the counter, the online shop shows it as sold out. With several branches, you choose which branches supply online orders.</p>
<h2>Online orders at the counter</h2>
<ul><li>Orders for pickup appear at the POS of the chosen branch, with a sound and a ticket to prepare.</li><li>Orders for delivery can be sent to a logistics partner from the same screen.</li><li>Customers pay online with cards, FPS, PayNow or e-wallets; refunds go through the POS like any other sale.</li></ul>
<h2>How to start</h2>
<p>The online shop is an add-on module on Lite and Flexi plans. Existing merchants can switch it on from the dashboard, and our team will help import your products and set up delivery areas.</p>`,
    'zh-hk': `<p>不少商戶同時在兩個地方做生意：門市櫃枱和網上。以往這通常代表兩份貨品清單、兩套庫存數字，仲有網上賣出了一件門市啱啱賣斷的貨品。今次更新將兩者合而為一。</p>
<h2>一份貨品清單</h2>
<p>貨品只需新增一次，連同相片、款式和價錢，再揀是否在網上發售。在 POS 改價，網店即時同步更新；推廣活動可以兩邊同時進行，亦可以只在其中一邊。</p>
<h2>庫存時刻準確</h2>
<p>無論在網上定門市賣出，都會扣減同一個庫存數字。門市賣出最後一件時，網店會即時顯示售罄。如有多間分店，你可以揀定由邊幾間分店負責網上訂單。</p>
<h2>網上訂單直達櫃枱</h2>
<ul><li>自取訂單會出現在指定分店的 POS，附有提示音和備貨單。</li><li>送貨訂單可以在同一畫面交給物流夥伴。</li><li>客人可以用信用卡、轉數快、PayNow 或電子錢包在網上付款；退款一樣經 POS 辦理。</li></ul>
<h2>點樣開始</h2>
<p>網店是 Lite 及 Flexi 計劃的附加模組。現有商戶可以在管理介面直接啟用，我們的團隊會協助匯入貨品及設定送貨範圍。</p>`,
    'zh-cn': `<p>不少商户同时在两个地方经营：门店柜台和线上。以往这通常意味着两份商品清单、两套库存数字，还会出现网上卖出了一件门店刚刚售罄的商品。这次更新把两者合而为一。</p>
<h2>一份商品清单</h2>
<p>商品只需添加一次，连同图片、规格和价格，再选择是否在网上销售。在 POS 上改价，网店会即时同步更新；促销活动可以两边同时进行，也可以只在其中一边。</p>
<h2>库存时刻准确</h2>
<p>无论在网上还是门店卖出，都会扣减同一个库存数字。门店卖出最后一件时，网店会立即显示售罄。如有多家门店，你可以指定由哪几家门店负责网上订单。</p>
<h2>网上订单直达柜台</h2>
<ul><li>自提订单会出现在指定门店的 POS 上，附有提示音和备货单。</li><li>配送订单可以在同一界面交给物流伙伴。</li><li>顾客可以用银行卡、转数快、PayNow 或电子钱包在线付款；退款同样通过 POS 办理。</li></ul>
<h2>如何开始</h2>
<p>网店是 Lite 和 Flexi 套餐的增值模块。现有商户可以在管理后台直接启用，我们的团队会协助导入商品并设置配送范围。</p>`,
  },
};

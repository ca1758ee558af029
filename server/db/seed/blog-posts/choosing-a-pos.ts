import type { SeedBlogPost } from '../blogs.ts';

export const choosingAPos: SeedBlogPost = {
  slug: 'how-to-choose-a-pos-system',
  category: 'restaurant-tips',
  tags: ['pos', 'buying-guide', 'small-business'],
  author: 'Mandy Wong',
  publishedAt: '2026-01-13T10:00:00+08:00',
  coverImage: '/images/blog/choosing-a-pos.svg',
  coverAlt: {
    en: 'A POS terminal with a receipt and a checklist beside it',
    'zh-hk': '收銀機旁邊放着收據和清單',
    'zh-cn': '收银机旁边放着小票和清单',
  },
  title: {
    en: 'How to choose a POS system for your restaurant or shop',
    'zh-hk': '點揀一套啱用的 POS？餐廳及零售店選購指南',
    'zh-cn': '如何为餐厅或门店挑选合适的 POS 系统',
  },
  summary: {
    en: 'Five questions to ask before you sign: how you really sell, what the system costs over two years, which payments it takes, who supports you at 11 pm on a Saturday, and how it feels with your own menu.',
    'zh-hk':
      '簽約前先問清楚五件事：你實際點樣做生意、兩年總成本幾多、支援邊啲付款方式、星期六晚上十一點有冇人幫手，以及用自己的餐牌試用感覺如何。',
    'zh-cn':
      '签约前先问清楚五个问题：你实际怎样经营、两年总成本是多少、支持哪些付款方式、周六晚上十一点有没有人支持，以及用自己的菜单试用感觉如何。',
  },
  body: {
    en: `<p>A point-of-sale system is the one piece of software your staff touch hundreds of times a day. Choose well and it disappears into the background; choose badly and every rush hour becomes a fight with the screen. Here is how owners in Hong Kong and Singapore can compare systems without getting lost in feature lists.</p>
<h2>Start with how you actually sell</h2>
<p>Write down a normal day: how orders come in (counter, table, phone, delivery apps), how customers pay, and what you check at closing. A café with one till needs fast item buttons and a clean receipt; a restaurant with 40 seats needs a table map, split bills and orders that reach the kitchen without anyone running.</p>
<ul><li><strong>Restaurants:</strong> table management, modifiers such as less ice or no spring onion, kitchen printing or a kitchen display, service charge.</li><li><strong>Shops:</strong> barcode scanning, sizes and colours, stock per branch, returns and exchanges.</li></ul>
<h2>Count the total cost over two years</h2>
<p>Monthly fees are easy to compare; the rest is not. Add hardware, installation, payment processing rates, add-on modules and the price of a second or third store. Ask whether there is a minimum contract, whether there is a fee when the card terminal sits idle, and whether Singapore prices include GST.</p>
<h2>Check payments before features</h2>
<p>Customers in Hong Kong expect Octopus, FPS, Alipay HK and WeChat Pay as well as cards; in Singapore, PayNow, NETS and GrabPay. A POS with payments built in settles everything in one report, so nobody has to match terminal slips against the till at midnight.</p>
<h2>Ask who supports you, and when</h2>
<p>Restaurants are busiest when many support desks are closed. Ask for support hours in writing, the languages the team speaks and how quickly a replacement device arrives if one fails. A local team that can visit your shop is worth more than one more feature.</p>
<h2>Try it with your own menu</h2>
<p>Ask for a demonstration with your own items, not a sample menu. Hand the tablet to your least technical staff member and time a typical order. If it feels slow in a quiet room, it will feel slower on a Friday night.</p>
<blockquote>The best POS is the one your team can use without thinking on their busiest night.</blockquote>`,
    'zh-hk': `<p>收銀系統係員工每日要㩒幾百次的工具。揀得啱，佢會默默做好本份；揀錯了，每個繁忙時段都變成同個螢幕角力。以下幾點，幫香港及新加坡的老闆比較不同系統，而唔會迷失在一大堆功能表之中。</p>
<h2>先諗清楚你實際點樣做生意</h2>
<p>寫低平日的運作：客人點樣落單（櫃枱、枱邊、電話、外賣平台）、點樣付款、收舖時要核對甚麼。一間得一部收銀機的咖啡店，需要快速的貨品按鈕同清晰的收據；一間四十個座位的餐廳，就需要枱位圖、分單埋單，以及唔使人跑來跑去都能送到廚房的訂單。</p>
<ul><li><strong>餐廳：</strong>枱位管理、走冰走蔥等附加選項、廚房打印或廚房顯示屏、服務費計算。</li><li><strong>零售店：</strong>條碼掃描、尺碼及顏色、各分店庫存、退貨及換貨。</li></ul>
<h2>計清楚兩年的總成本</h2>
<p>月費好容易比較，其他費用就未必。記得加埋硬件、安裝、收款手續費、附加模組，以及開第二、第三間分店的收費。問清楚有冇最短合約期、信用卡終端機冇交易時會否收費，以及新加坡的價格是否已包括消費稅。</p>
<h2>先睇付款方式，再睇功能</h2>
<p>香港客人除咗信用卡，仲預期可以用八達通、轉數快、支付寶香港同微信支付；新加坡客人就習慣 PayNow、NETS 和 GrabPay。內置收款功能的 POS 會將所有交易整合在同一份報表，夜晚收舖唔使再逐張核對終端機單據。</p>
<h2>問清楚邊個支援你、幾時支援</h2>
<p>餐廳最忙的時候，往往正是很多客服部門休息的時候。要求對方以書面列明支援時間、服務語言，以及機器壞咗幾快可以換新。一支可以親身上門的本地團隊，比多一個功能更有價值。</p>
<h2>用自己的餐牌試一次</h2>
<p>要求用你自己的貨品或餐牌示範，而唔係示範用的樣板。將平板交俾最唔熟電腦的同事，計吓落一張普通訂單要幾耐。如果喺安靜的會議室都覺得慢，星期五晚一定更慢。</p>
<blockquote>最好的 POS，是團隊在最忙的晚上都唔使諗就識用的那一套。</blockquote>`,
    'zh-cn': `<p>收银系统是员工每天要点击上百次的工具。选对了，它会安静地把事情做好；选错了，每个高峰时段都会变成和屏幕较劲。以下几点可以帮助香港和新加坡的店主比较不同系统，而不会迷失在冗长的功能清单里。</p>
<h2>先想清楚你实际怎样经营</h2>
<p>把平常的一天写下来：顾客怎样下单（柜台、桌边、电话、外卖平台）、怎样付款、打烊时要核对什么。只有一台收银机的咖啡馆，需要快速的商品按钮和清晰的小票；有四十个座位的餐厅，则需要桌台图、拆单结账，以及不用人跑腿就能送到厨房的订单。</p>
<ul><li><strong>餐厅：</strong>桌台管理、少冰或不要葱等口味选项、厨房打印或厨房显示屏、服务费计算。</li><li><strong>零售店：</strong>条码扫描、尺码和颜色、各门店库存、退货和换货。</li></ul>
<h2>算清楚两年的总成本</h2>
<p>月费很容易比较，其他费用就未必。记得加上硬件、安装、收款手续费、增值模块，以及开第二、第三家门店的费用。问清楚是否有最短合约期、刷卡终端没有交易时是否收费，以及新加坡的价格是否已含消费税。</p>
<h2>先看付款方式，再看功能</h2>
<p>香港顾客除了银行卡，还希望能用八达通、转数快、支付宝香港和微信支付；新加坡顾客则习惯 PayNow、NETS 和 GrabPay。内置收款功能的 POS 会把所有交易汇总在同一份报表里，打烊后不必再逐张核对终端小票。</p>
<h2>问清楚谁来支持你、什么时候支持</h2>
<p>餐厅最忙的时候，往往正是很多客服部门下班的时候。请对方书面说明支持时间、服务语言，以及设备故障时多快能换新。一支能够上门服务的本地团队，比多一个功能更有价值。</p>
<h2>用自己的菜单试一次</h2>
<p>要求用你自己的商品或菜单来演示，而不是样板菜单。把平板交给最不熟悉电脑的同事，计时看看下一张普通订单要多久。如果在安静的会议室里都觉得慢，到了周五晚上只会更慢。</p>
<blockquote>最好的 POS，是团队在最忙的晚上也能不假思索地用好的那一套。</blockquote>`,
  },
};

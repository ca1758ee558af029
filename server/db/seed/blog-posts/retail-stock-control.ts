import type { SeedBlogPost } from '../blogs.ts';

export const retailStockControl: SeedBlogPost = {
  slug: 'stock-control-for-small-retail-shops',
  category: 'retail-tips',
  tags: ['inventory', 'retail', 'pos'],
  author: 'Karen Lee',
  publishedAt: '2026-06-05T10:00:00+08:00',
  coverImage: '/images/blog/stock-control.svg',
  coverAlt: {
    en: 'Shelves of boxes with a barcode scanner and a stock chart',
    'zh-hk': '貨架上的紙箱、條碼掃描器和庫存圖表',
    'zh-cn': '货架上的纸箱、条码扫描器和库存图表',
  },
  title: {
    en: 'Stock control for small retail shops',
    'zh-hk': '小型零售店的存貨管理心得',
    'zh-cn': '小型零售店的库存管理要点',
  },
  summary: {
    en: 'Counting stock by hand once a month is how shops run out of best sellers and over-order slow ones. A simple routine with your POS keeps shelves full and cash free.',
    'zh-hk':
      '每月人手點貨一次，結果往往是熱賣貨斷貨、滯銷貨越積越多。配合 POS 建立簡單的日常流程，貨架常滿，現金亦唔會被存貨綁住。',
    'zh-cn':
      '每月手工盘点一次，结果往往是畅销品断货、滞销品越积越多。配合 POS 建立简单的日常流程，货架常满，现金也不会被库存占用。',
  },
  body: {
    en: `<p>In a small shop, stock is usually the biggest thing you have paid for and not yet sold. Too little and customers leave empty-handed; too much and your cash sits in the storeroom. Good stock control is less about software than about a routine the POS makes easy.</p>
<h2>Give every item a barcode</h2>
<p>Scan every sale, including the items without a supplier barcode: print your own labels. When each sale reduces stock automatically, your numbers are right every evening, not only after the monthly count. Record sizes and colours as variants of one product, so reports show that the medium black T-shirt sells out while the large white one does not.</p>
<h2>Set reorder points, not gut feelings</h2>
<p>For each product, decide the quantity at which you reorder: how many you sell in a normal week, times the supplier's delivery time, plus a small buffer. The POS lists everything below that point each morning, so ordering takes ten minutes instead of a walk around the shelves.</p>
<ul><li>Fast sellers: check daily and keep a buffer.</li><li>Seasonal items: order early, and mark down what is left at the end of the season.</li><li>Slow sellers: no automatic reorder; decide case by case.</li></ul>
<h2>Count a little, often</h2>
<p>Instead of closing the shop for a full stocktake, count one shelf or category each day with a phone or scanner. Differences show up while you still remember why, whether that is a damaged item, a wrong delivery or theft.</p>
<h2>Several branches, one stock list</h2>
<p>With two or more shops, see stock for every branch in one place and transfer items instead of reordering. A customer asking for a size you do not have can be told which branch has it, or have it sent from your online shop.</p>`,
    'zh-hk': `<p>對小店來說，存貨通常是已經付了錢、但未賣出的最大一筆資產。貨太少，客人空手而回；貨太多，現金就困喺貨倉。做好存貨管理，重點唔在於軟件本身，而在於一套 POS 可以幫你輕鬆執行的日常流程。</p>
<h2>每件貨品都要有條碼</h2>
<p>每一宗交易都要掃描，包括供應商冇提供條碼的貨品：自己打印標籤就得。每賣出一件就自動扣減庫存，每晚的數字都準確，而唔係只在月底點貨後先啱。將尺碼和顏色設為同一貨品的款式，報表就會清楚顯示中碼黑色 T 恤賣斷，而大碼白色就仲有貨。</p>
<h2>用補貨點代替感覺</h2>
<p>為每件貨品定一個補貨數量：平常一星期賣出的數量，乘以供應商送貨所需時間，再加少少緩衝。POS 每朝會列出所有低於補貨點的貨品，落單只需十分鐘，唔使再行勻成間舖。</p>
<ul><li>熱賣貨：每日檢查，保留緩衝。</li><li>季節貨品：提早訂貨，季尾將剩餘的減價清貨。</li><li>滯銷貨：唔設自動補貨，逐次決定。</li></ul>
<h2>少量多次點貨</h2>
<p>與其閂舖做一次大盤點，不如每日用手機或掃描器點一個貨架或一個類別。數字有出入時，你仲記得原因：可能是貨品損壞、供應商送錯貨，或者被人偷竊。</p>
<h2>多間分店，一份庫存</h2>
<p>有兩間或以上分店時，可以喺同一個地方睇晒各分店存貨，用調貨代替重新訂貨。客人想要的尺碼冇貨，你可以即刻話俾佢知邊間分店有，或者由網店寄俾佢。</p>`,
    'zh-cn': `<p>对小店来说，库存通常是已经付了钱、却还没卖出去的最大一笔资产。货太少，顾客空手而归；货太多，现金就压在仓库里。做好库存管理，关键不在软件本身，而在于一套 POS 能帮你轻松执行的日常流程。</p>
<h2>每件商品都要有条码</h2>
<p>每一笔销售都要扫码，包括供应商没有提供条码的商品：自己打印标签即可。每卖出一件就自动扣减库存，每晚的数据都准确，而不是只有月底盘点后才准确。把尺码和颜色设为同一商品的规格，报表就会清楚显示中码黑色 T 恤已售罄，而大码白色还有库存。</p>
<h2>用补货点代替感觉</h2>
<p>为每件商品设定一个补货数量：平常一周的销量，乘以供应商送货所需的时间，再加上少量缓冲。POS 每天早上会列出所有低于补货点的商品，下单只需十分钟，不必再把整个店走一遍。</p>
<ul><li>畅销品：每天检查，保留缓冲。</li><li>季节性商品：提前订货，季末把剩余的打折清仓。</li><li>滞销品：不设自动补货，逐次决定。</li></ul>
<h2>少量多次盘点</h2>
<p>与其关店做一次大盘点，不如每天用手机或扫描枪盘点一个货架或一个品类。数字有出入时，你还记得原因：可能是商品损坏、供应商送错货，或者被盗。</p>
<h2>多家门店，一份库存</h2>
<p>有两家或以上门店时，可以在同一处查看各门店的库存，用调拨代替重新订货。顾客想要的尺码没货时，你可以马上告诉他哪家门店有，或者从网店寄给他。</p>`,
  },
};

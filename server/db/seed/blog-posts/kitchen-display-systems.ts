import type { SeedBlogPost } from '../blogs.ts';

export const kitchenDisplaySystems: SeedBlogPost = {
  slug: 'kitchen-display-systems-explained',
  category: 'restaurant-tips',
  tags: ['kds', 'kitchen', 'efficiency'],
  author: 'Mandy Wong',
  publishedAt: '2026-04-22T10:00:00+08:00',
  coverImage: '/images/blog/kitchen-display.svg',
  coverAlt: {
    en: 'A kitchen display screen showing order tickets in columns',
    'zh-hk': '廚房顯示屏上分欄列出訂單',
    'zh-cn': '厨房显示屏上分栏列出订单',
  },
  title: {
    en: 'Kitchen display systems: from paper tickets to a calm kitchen',
    'zh-hk': '廚房顯示系統（KDS）：由紙飛到井井有條的廚房',
    'zh-cn': '厨房显示系统（KDS）：从纸质单据到井然有序的厨房',
  },
  summary: {
    en: 'A kitchen display replaces printed tickets with a screen that shows every order, its age and its station. What changes for cooks, for the pass and for your numbers.',
    'zh-hk':
      '廚房顯示屏以螢幕取代打印單，清楚顯示每張訂單、等候時間和負責工作站。看看廚師、出餐位以及營運數字會有甚麼改變。',
    'zh-cn':
      '厨房显示屏用屏幕取代打印单据，清楚显示每张订单、等候时间和负责工位。看看厨师、出餐口和经营数据会有什么变化。',
  },
  body: {
    en: `<p>Printed tickets have served kitchens for decades, but they get wet, lost and buried under a pile at 8 pm. A kitchen display system (KDS) puts every order on a screen at each station, in the order it was placed, with a timer that turns orange and then red as it waits.</p>
<h2>What a KDS shows</h2>
<p>Each ticket lists the table or order number, the items, the modifiers in bold and the minutes since it arrived. Orders from the counter, from QR ordering and from delivery apps all land in the same queue, so nobody has to read a delivery tablet on the other side of the kitchen.</p>
<h2>Routing by station</h2>
<p>A bowl of wonton noodles goes to the noodle station; a milk tea goes to the drinks bar; the pass sees the whole table. Each station sees only its own work, and the pass knows when the last item of a table is ready to go out together.</p>
<h2>What owners measure</h2>
<p>Because every ticket is timed, the KDS reports how long each dish and station takes by hour of the day. Restaurants that move from paper typically report around 20% better workflow efficiency, mainly from fewer lost or repeated orders and less shouting across the pass.</p>
<ul><li>Average preparation time per station and per dish.</li><li>The slowest hour of the week, so you can plan staff.</li><li>Orders recalled or remade, a sign of confusing modifiers.</li></ul>
<h2>Making the switch</h2>
<p>Mount screens where cooks look naturally, above the station and away from steam. Start with one station for a week, keep the printer as a backup, and ask the team which fields they want larger. Most kitchens stop asking for paper within a month.</p>`,
    'zh-hk': `<p>打印單陪伴廚房幾十年，但佢會濕、會唔見，晚上八點仲會疊成一大堆。廚房顯示系統（KDS）將每張訂單顯示喺各工作站的螢幕上，按落單次序排列，等得耐了計時器會由橙色變紅色。</p>
<h2>KDS 會顯示甚麼</h2>
<p>每張單列出枱號或單號、菜式、以粗體顯示的特別要求，以及由收單到而家過了幾多分鐘。櫃枱單、QR 點餐單同外賣平台單全部入同一條隊，唔使再有人跑去廚房另一邊睇外賣平板。</p>
<h2>按工作站分單</h2>
<p>一碗雲吞麵送去麵檔，一杯奶茶送去水吧，出餐位就睇到成張枱的進度。每個工作站只睇自己負責的部分，出餐位亦知道同一張枱的最後一道菜幾時準備好，可以一齊上。</p>
<h2>老闆可以量度甚麼</h2>
<p>因為每張單都有計時，KDS 可以按時段報告每道菜、每個工作站所需時間。由紙單轉用 KDS 的餐廳，工作效率一般提升約 20%，主要來自少咗漏單、重做，以及隔住出餐位大叫。</p>
<ul><li>各工作站及各菜式的平均製作時間。</li><li>一星期內最慢的時段，方便安排人手。</li><li>被召回或重做的訂單，反映特別要求是否寫得不清楚。</li></ul>
<h2>點樣轉用</h2>
<p>將螢幕裝喺廚師自然會望到的位置，即工作站上方、遠離蒸氣。先喺一個工作站試用一星期，打印機保留作後備，再問吓團隊想放大邊啲資料。大部分廚房一個月內就唔再要紙單。</p>`,
    'zh-cn': `<p>打印单据陪伴厨房几十年，但它会被打湿、会丢失，到了晚上八点还会堆成一大叠。厨房显示系统（KDS）把每张订单显示在各工位的屏幕上，按下单顺序排列，等得久了计时器会从橙色变成红色。</p>
<h2>KDS 显示什么</h2>
<p>每张订单列出桌号或单号、菜品、加粗显示的口味要求，以及从收单到现在过了多少分钟。柜台单、QR 点餐单和外卖平台单全部进入同一个队列，不必再有人跑到厨房另一头去看外卖平板。</p>
<h2>按工位分单</h2>
<p>一碗云吞面送到面档，一杯奶茶送到水吧，出餐口则能看到整桌的进度。每个工位只看自己负责的部分，出餐口也知道同一桌的最后一道菜何时做好，可以一起上桌。</p>
<h2>店主可以衡量什么</h2>
<p>因为每张订单都有计时，KDS 可以按时段统计每道菜、每个工位所需的时间。从纸质单据改用 KDS 的餐厅，工作效率通常提升约 20%，主要来自漏单和重做减少，以及不再隔着出餐口大喊。</p>
<ul><li>各工位和各菜品的平均制作时间。</li><li>一周内最慢的时段，便于安排人手。</li><li>被召回或重做的订单，反映口味要求是否写得不清楚。</li></ul>
<h2>如何切换</h2>
<p>把屏幕装在厨师自然会看到的位置，也就是工位上方、远离蒸汽的地方。先在一个工位试用一周，保留打印机作为备用，再问问团队希望放大哪些信息。大多数厨房一个月内就不再需要纸质单据。</p>`,
  },
};

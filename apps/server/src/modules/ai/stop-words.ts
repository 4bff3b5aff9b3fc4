/**
 * Words a search drops from a question ("who is", "qui est", "是谁") so that they do not outweigh the
 * words it is about. Only function words and question words: a list that held content words
 * ("Gott", "Mann", "年") would make them unsearchable. Keyed by Yidu's language codes.
 */
export const STOP_WORDS: Record<string, string> = {
  en: `a about above after again against all am an and any are as at be because been before being below between
    both but by can could did do does doing down during each few for from further had has have having he her here
    hers herself him himself his how i if in into is it its itself just me more most my myself no nor not of off
    on once only or other our ours ourselves out over own same she should so some such than that the their theirs
    them themselves then there these they this those through to too under until up very was we were what when
    where which while who whom whose why will with would you your yours yourself yourselves tell show find explain
    does did done`,
  de: `der die das den dem des ein eine einer einem einen eines und oder aber doch nicht kein keine ist sind war
    waren bin bist sein seid wird werden wurde wurden hat haben hatte hatten ich du er sie es wir ihr mich dich sich
    uns euch mir dir ihm ihn ihnen mein dein sein ihr unser euer in im an am auf aus bei mit nach von vom zu zum zur
    für über unter vor hinter neben zwischen durch gegen ohne um als wie wo wer wen wem wessen was warum wieso
    weshalb wann welche welcher welches dass daß ob wenn so auch noch nur schon sehr dann da denn hier dort`,
  fr: `le la les l un une des du de d et ou mais donc or ni car ne pas plus que qu qui quoi quel quelle quels
    quelles où quand comment pourquoi combien est sont était étaient être a ai as avons avez ont avait il elle ils
    elles je j tu nous vous on me m te t se s lui leur y en ce c cet cette ces son sa ses mon ma mes ton ta tes
    notre nos votre vos dans sur sous avec sans pour par chez au aux entre vers`,
  es: `el la los las lo un una unos unas y o pero ni que qué quien quién quienes quiénes cual cuál cuales cuáles
    donde dónde cuando cuándo como cómo por porqué qué es son era eran ser estar está están fue fueron ha han he
    yo tú él ella ellos ellas nosotros vosotros usted ustedes me te se le les nos os mi mis tu tus su sus de del
    al a en con sin para sobre entre hasta desde muy más también`,
  it: `il lo la i gli le un uno una e o ma né che chi cosa quale quali dove quando come perché è sono era erano
    essere ha hanno ho io tu lui lei noi voi loro mi ti si ci vi ne di del della dei delle degli a al alla ai
    alle da dal dalla in nel nella con su sul sulla per tra fra non più molto`,
  pt: `o a os as um uma uns umas e ou mas nem que quem qual quais onde quando como porque por quê é são era eram
    ser estar está estão foi foram tem têm eu tu ele ela eles elas nós vós você vocês me te se lhe lhes nos meu
    minha seu sua de do da dos das em no na nos nas com sem para sobre entre até muito mais também não`,
  nl: `de het een en of maar dat die dit deze wie wat welke waar wanneer hoe waarom is zijn was waren ben bent
    heeft hebben had ik jij je hij zij ze wij we jullie u mij me hem haar ons hun mijn jouw zijn in op aan bij met
    van voor naar uit over door om tot niet geen ook nog zeer er`,
  da: `den det de en et og eller men at som hvem hvad hvilken hvilke hvor hvornår hvordan hvorfor er var være
    har havde jeg du han hun vi i mig dig ham hende os dem min din sin på af til fra med for om ved ikke også meget`,
  ru: `и в во не что кто какой какая какое какие где когда как почему зачем это этот эта эти тот та те он она
    оно они я ты мы вы его её ее их ему ей им мне тебе себе меня тебя на с со к ко по о об от из у за для до при
    над под а но или же ли бы был была было были быть есть`,
  tr: `ve veya ama ile bir bu şu o ne kim kimdir nedir nerede ne zaman nasıl neden niçin hangi mi mı mu mü da de
    için gibi daha çok en ben sen biz siz onlar`,
  id: `dan atau tetapi yang di ke dari untuk dengan pada adalah ialah itu ini siapa apa apakah mana di mana kapan
    bagaimana mengapa kenapa saya aku kamu dia mereka kami kita tidak juga sangat`,
  vi: `và hoặc nhưng là của có không những các một cái này đó ai gì nào đâu khi sao tại vì như thế nào bao
    nhiêu tôi bạn anh chị em nó họ chúng ta trong trên với cho được bị rất cũng`,
  sw: `na au lakini ni ya wa la za kwa katika kama nani nini wapi lini vipi kwa nini hii hiyo huyo yule mimi wewe
    yeye sisi ninyi wao si`,
};

/**
 * Chinese and Japanese have no spaces: these cut a question into the words it is about
 * ("贾宝玉是谁" → 贾宝玉). Longer entries are tried first. Single characters only where they are
 * nearly always function words, so "目的" keeps its 的 only as part of a longer match elsewhere.
 */
const CJK_WORDS = `为什么 為什麼 什么 什麼 怎么样 怎麼樣 怎么 怎麼 怎样 怎樣 如何 哪里 哪裡 哪儿 哪個 哪个 哪些 是不是
  有没有 有沒有 是谁 是誰 谁是 誰是 请问 請問 关于 關於 告诉我 告訴我 一下 为何 為何 这个 這個 那个 那個 这些 這些 那些
  的 了 吗 嗎 呢 吧 啊 呀 么 麼 是 谁 誰 和 与 與 及 或 也 都 在 把 被 给 給 这 這 那 我 你 他 她 它 们 們
  ですか でしょうか ますか について とは って という です ます でした だれ なに なん どこ どう どの いつ なぜ どうして
  この その あの これ それ あれ は が の を に へ と で も や か ね よ な だ 誰 何`;

/** Korean particles and endings that stick to the end of a word (퀴퀘그는 → 퀴퀘그). */
export const KOREAN_ENDINGS = [
  '이에요',
  '입니까',
  '입니다',
  '인가요',
  '에게서',
  '이다',
  '인가',
  '예요',
  '에서',
  '에게',
  '으로',
  '은',
  '는',
  '이',
  '가',
  '을',
  '를',
  '의',
  '에',
  '로',
  '와',
  '과',
  '도',
  '만',
];
const KOREAN_WORDS = `누구 무엇 뭐 뭔가 어디 언제 왜 어떻게 어떤 무슨 그 이 저 그리고 또는 하지만 및 것 수 등 있다 없다 하다 되다`;

const words = (list: string) => list.split(/\s+/).filter(Boolean);
export const CJK_STOP_WORDS = words(CJK_WORDS).sort((a, b) => b.length - a.length);
export const KOREAN_STOP_WORDS = new Set(words(KOREAN_WORDS));

/**
 * Tuning-only material for the two shapes where hybrid search did not rise above its best single signal on the
 * evaluation halves (issue N): every question `split: "tune"`, ids `tq…`; written, with its evidence, before any
 * retrieval ran on it.
 *
 * - `chats-reworded` (assistant-chats' shape, where BM25 is near useless): assistant-chats' memories as the haystack,
 *   then eleven sessions in which the user mentions a fact in a short turn of their own words beside a request, and
 *   the assistant answers at length (sometimes echoing the user). Questions ask what the user said in other words:
 *   most share no content word with the evidence, some one, and four gather facts from several sessions.
 * - `long-lexical` (long-turns' shape, where vector is the weaker signal): long-chats' memories as the haystack, then
 *   eleven sessions whose user turns are 90–140 words of context with the fact in one sentence (a name, a brand, a
 *   place, an amount), answers that open by repeating the user's rare words, a second long turn on the topic without
 *   the fact and a short request. Most questions name exactly one rare word of the evidence and reword the rest.
 */
import { chatsCorpus, layChatSessions } from './chats.js';
import type { LaterSession } from './chats-later.js';
import { rng, type Corpus, type CorpusDoc, type CorpusQuestion } from './format.js';
import { longChatsWithFacts, type LongChatKind } from './long-chats.js';
import { laySessions, type LongSession } from './long-turns.js';

export type RewordedKind = 'reworded' | 'one-word' | 'multi';

const CHAT_SESSIONS: LaterSession[] = [
  {
    topic: 'family',
    advice: ['New parents of two mostly need sleep and food, so a cooked meal is worth more than a toy.', 'Offer a specific afternoon of help rather than a vague promise.', 'A big family weekend works best with one shared meal a day and free time around it.', 'Plan one quiet activity for the oldest guests and one outdoor one for the children.'],
    turns: [
      { user: "My brother Tomás and his wife just had twins, a boy and a girl, and I'm flying to Faro next month to meet them. What's a thoughtful gift for new parents that isn't more baby clothes?", key: 'twins', echo: 'Twins are a wonderful surprise, and new parents of two usually need practical help more than things.' },
      { user: 'How long is it polite to stay when visiting a house with newborns?' },
      { user: 'My grandmother turns ninety in August and the whole family is renting a farmhouse in the Alentejo for the weekend. How do we plan activities that work for every age?', key: 'grandma' },
    ],
  },
  {
    topic: 'programming',
    advice: ['Migrate one module at a time and keep the build green after each step.', 'Interoperability between the old and new language is usually good enough to mix them for a while.', 'Alert on symptoms that users feel, not on every resource metric.', 'Write down every page you get and review the list with the team each week.'],
    turns: [
      { user: "I'm rewriting our Android app from Java to Kotlin, one screen at a time, because the codebase is eight years old. How do I keep both languages working together during the migration?", key: 'kotlin', echo: 'Moving from Java to Kotlin screen by screen is a sensible way to do it.' },
      { user: "I'm on call every third week now and got paged at 3am twice last week for a disk filling up. How do I push for better alerting without sounding like I'm complaining?", key: 'oncall' },
    ],
  },
  {
    topic: 'health',
    advice: ['Tell the dentist you are anxious; most will explain each step and agree on a signal to pause.', 'Booking the first appointment of the morning leaves less time to worry.', 'Iron and vitamin B12 are worth checking with a blood test after a change of diet.', 'Pulses with a source of vitamin C help the body absorb iron.'],
    turns: [
      { user: 'I finally went to the dentist after four years and need two fillings and a crown on a back tooth. How do I make the appointments less stressful?', key: 'dentist', echo: 'Two fillings and a crown after a long gap is very common, and the appointments can be made much easier.' },
      { user: "I've been vegetarian since January, mostly for environmental reasons, but I feel tired in the afternoons. Could my diet be part of it?", key: 'vegetarian' },
    ],
  },
  {
    topic: 'hobbies',
    advice: ['Centring the clay takes most beginners weeks, so keep the wheel fast and your elbows braced.', 'Walls that collapse are usually too thin at the base or too wet.', 'Reviewing your own lost games teaches more than playing many quick ones.', 'Short tactics puzzles every day build pattern recognition quickly.'],
    turns: [
      { user: 'I joined an evening pottery class at the community centre on Thursdays and my bowls keep collapsing on the wheel. What am I doing wrong?', key: 'pottery', echo: 'Bowls collapsing on the wheel is the most common problem in a first pottery class.' },
      { user: "My son and I play chess every night after dinner and he's started beating me. How can I improve without spending hours on it?", key: 'chess' },
    ],
  },
  {
    topic: 'travel',
    advice: ['Register with the consulate and bring certified copies of birth and marriage certificates.', 'Open a local bank account early, since many landlords ask for one.', 'A sleeper cabin turns a long journey into a night in a hotel that moves.', 'Book overnight trains as early as possible; the cheapest couchettes go first.'],
    turns: [
      { user: "We're moving to Toronto for two years for my wife's job and I'm waiting on my open work permit. What should we sort out before we leave Portugal?", key: 'visa' },
      { user: "I'd rather take the night train from Vienna to Venice than fly, even if it takes longer. Is a sleeper cabin worth the extra money?", key: 'train', echo: 'The night train from Vienna to Venice is a lovely way to travel, and a sleeper cabin makes a real difference.' },
    ],
  },
  {
    topic: 'finance',
    advice: ['An employer match is an immediate return, so it is usually the first thing to take in full.', 'Raise contributions when you get a pay rise so the budget never feels the cut.', 'Check the early repayment fee in the loan contract before paying ahead.', 'Paying off a loan at a high rate is a guaranteed return equal to that rate.'],
    turns: [
      { user: "My employer matches pension contributions up to five percent and I've only been putting in two. Should I raise it even if it means a tighter budget?", key: 'pension' },
      { user: 'What is a sensible amount to keep in a current account?' },
      { user: 'We took a loan of 12,000 for a used Toyota Yaris hybrid last spring at 7 percent. Does it make sense to pay it off early?', key: 'carloan', echo: 'A loan at 7 percent on the Yaris is fairly expensive, so paying it early can make sense.' },
    ],
  },
  {
    topic: 'gardening',
    advice: ['Bees are rarely aggressive away from the hive entrance.', 'A hedge or a fence in front of the hives makes the bees fly up and over people.', 'Lavender will do better with more pollinators, not worse.', 'Agree on rules for the shared space in writing so nobody feels ignored.'],
    turns: [
      { user: "A neighbour put two beehives on the shared allotment and now I'm nervous about my lavender and the kids playing nearby. How do we all get along?", key: 'bees' },
      { user: 'When is the best time to plant garlic?' },
    ],
  },
  {
    topic: 'language',
    advice: ['Listen to the radio news in the language daily, first with a transcript, then without.', 'Past papers are the best preparation for the format of an exam.', 'Shadowing, repeating a recording as you hear it, trains both listening and pronunciation.', 'Note every word you miss and review the list the next day.'],
    turns: [
      { user: 'I have a B1 German exam in Munich in May for my citizenship application, and my listening is the weakest part. How should I practise?', key: 'german', echo: 'Listening is the part of the B1 exam most people find hardest, and it improves quickly with daily practice.' },
      { user: 'Are subtitles in the language helpful or a crutch?' },
    ],
  },
  {
    topic: 'pets',
    advice: ['Parrots often call loudly at dusk; it is a flock behaviour, not distress.', 'Covering the cage at a regular time helps a bird settle.', 'A new place unsettles birds for a week or two, so keep the routine of the owner.', 'Foraging toys keep a clever bird busy in the afternoon.'],
    turns: [
      { user: "We're looking after my uncle's African grey parrot, Kiko, for six weeks while he's in Brazil. He screams every evening. Is that normal?", key: 'parrot' },
      { user: 'What fruit is safe to give a bird?' },
    ],
  },
  {
    topic: 'reading',
    advice: ['Narrators matter as much as the book in audio, so try a sample first.', 'Long historical novels work well in audio because the story carries you.', 'Alternate a long series with something short to keep momentum.', 'Speeding playback up slightly helps if the narrator is slow.'],
    turns: [
      { user: 'I listen to audiobooks on my commute now, about an hour a day, and just finished all of the Wolf Hall trilogy. What should I try next?', key: 'audiobook', echo: 'Finishing the Wolf Hall trilogy is an achievement, and there is plenty to follow it with.' },
      { user: 'How do I remember more of what I read?' },
    ],
  },
  {
    topic: 'home',
    advice: ['Divide the cost by the yearly savings on the bill to get the payback time.', 'South-facing roofs without shade produce the most.', 'Ask for the expected yearly production in writing with the quote.', 'A battery rarely pays off unless electricity is much dearer in the evening.'],
    turns: [
      { user: "We're thinking about putting solar panels on the roof of our house in Évora; the quote was 6,500 euros for 4 kilowatts. How do I know if it pays off?", key: 'solar' },
      { user: 'How do I keep a house cool in summer without air conditioning?' },
    ],
  },
];

const CHAT_QUESTIONS: { q: string; keys: string[]; kind: RewordedKind }[] = [
  { q: 'Who in my family recently became a parent of two babies at once?', keys: ['twins'], kind: 'reworded' },
  { q: 'Which relative is celebrating a big birthday, and how are we marking it?', keys: ['grandma'], kind: 'reworded' },
  { q: 'What old code am I gradually converting, and into what?', keys: ['kotlin'], kind: 'reworded' },
  { q: 'What keeps waking me in the middle of the night because of work?', keys: ['oncall'], kind: 'reworded' },
  { q: 'What treatment on my teeth is coming up?', keys: ['dentist'], kind: 'reworded' },
  { q: 'When did I give up meat, and why?', keys: ['vegetarian'], kind: 'reworded' },
  { q: 'What craft do I do one weeknight a week?', keys: ['pottery'], kind: 'reworded' },
  { q: 'Which board game has my kid been winning lately?', keys: ['chess'], kind: 'reworded' },
  { q: 'Which country are we relocating to, and for whose job?', keys: ['visa'], kind: 'reworded' },
  { q: 'How did I decide to get to Italy?', keys: ['train'], kind: 'reworded' },
  { q: 'How much of my retirement saving does the company top up?', keys: ['pension'], kind: 'reworded' },
  { q: 'Which vehicle are we still paying for?', keys: ['carloan'], kind: 'reworded' },
  { q: 'What insects arrived at the garden plot we share?', keys: ['bees'], kind: 'one-word' },
  { q: 'Which test am I preparing for, and what is my weakest skill?', keys: ['german'], kind: 'one-word' },
  { q: 'Whose bird are we minding, and for how long?', keys: ['parrot'], kind: 'reworded' },
  { q: 'Which historical novels did I get through on my way to work?', keys: ['audiobook'], kind: 'reworded' },
  { q: 'What did the installer quote for generating electricity on our roof?', keys: ['solar'], kind: 'one-word' },
  { q: 'Which family members have I brought up lately?', keys: ['twins', 'grandma', 'parrot'], kind: 'multi' },
  { q: 'What have I told you about my health and what I eat?', keys: ['dentist', 'vegetarian'], kind: 'multi' },
  { q: 'Which journeys or moves abroad have I mentioned?', keys: ['visa', 'train'], kind: 'multi' },
  { q: 'What choices about debt and saving am I weighing?', keys: ['pension', 'carloan'], kind: 'multi' },
];

const LONG_SESSIONS: LongSession[] = [
  {
    topic: 'travel',
    turns: [
      {
        key: 'skye',
        text: "Right, so we're finally doing the Scotland trip in September, ten days, starting in Edinburgh and driving north. We've rented a small car because the roads up there are apparently narrow, and neither of us has driven on the left for years, which I'm a little nervous about. We booked two nights at a guesthouse on Skye called Tigh na Mara, 95 pounds a night with breakfast, and the rest is still open. We like walking but not scrambling, we want at least one distillery, and my partner wants to see puffins if that's still possible in September. How would you split the ten days so we're not in the car all the time?",
        echo: 'Two nights at Tigh na Mara on Skye is a good anchor for a ten-day loop from Edinburgh.',
      },
      { text: "Also, what should we pack for Scottish weather in early autumn? I've heard it can be four seasons in a day, and we're flying with hand luggage only, so we can't bring everything. We'd rather layer than carry two big coats, and we'll be outdoors most days, sometimes for five or six hours. A short list with what actually matters would be great, including shoes." },
    ],
  },
  {
    topic: 'music',
    turns: [
      {
        key: 'grade',
        text: "Some background first: I came back to the violin two years ago after a fifteen-year break, and I've been having weekly lessons since. My teacher, Mrs. Okonkwo, thinks I'm ready for the Grade 6 exam in March and wants me to enter, but the scales at that level scare me, especially the three-octave ones, and I freeze when someone is listening. I practise about forty minutes on weekdays and longer at the weekend. I'm not sure I want the pressure of an exam at all, honestly, but she says a goal would help my practice. How would you structure the next few months, and is an exam worth it for an adult learner?",
        echo: 'Mrs. Okonkwo may well be right that Grade 6 in March would give your practice a shape.',
      },
      { text: "On the nerves side: even playing for my partner at home my bow arm starts shaking after a minute or two, and then the sound gets thin and scratchy, which makes it worse. I know a lot of people deal with this. Are there exercises or routines that help specifically with a shaking bow, and how do people practise performing without an actual audience around?" },
    ],
  },
  {
    topic: 'home',
    turns: [
      {
        key: 'roof',
        text: "We've had a damp patch on the bedroom ceiling since the storms in November, and it grows every time it rains hard. We had two people come to look at it. The first one said the tiles were fine and it was condensation, which I don't believe because it's right under the chimney. The second, a roofer from Telhados Silva, went up and said the lead flashing around the chimney has come away, and quoted 3,200 euros to redo it, scaffolding included. That seems like a lot to me, but I have nothing to compare it with. How do I judge whether that quote is fair, and what should be written into it?",
        echo: 'A quote of 3,200 euros from Telhados Silva for new flashing with scaffolding is not unusual, but it is worth checking what it covers.',
      },
      { text: "Meanwhile, the ceiling itself: the plaster around the stain is bubbling a bit and the paint is peeling. Once the leak is fixed, how long should we wait before repairing and painting, and is it a job we can do ourselves? We've painted walls before but never patched a ceiling, and I'm worried about making it look worse than the stain." },
    ],
  },
  {
    topic: 'cycling',
    turns: [
      {
        key: 'folding',
        text: "My commute changed: the office moved to the other side of the city, so now it's a train for twenty minutes and then about four kilometres at each end. Taking a full-size bike on the train at rush hour is impossible, and the station has nowhere safe to lock one. I ended up buying a second-hand Brompton from a guy in Coimbra for 650 euros, the six-speed one, and it folds in about twenty seconds once you get the hang of it. It rides differently from my road bike though, twitchy at first. Any tips for riding a small-wheeled folding bike in traffic, and what maintenance does it need that a normal bike doesn't?",
        echo: 'A six-speed Brompton for 650 euros is a good buy for a mixed train commute.',
      },
      { text: "And for the train part, what's the etiquette with a folded bike in a crowded carriage? Some mornings it's packed and I feel people glaring at me, even though the bike is folded and I stand with it in the corner by the door. Is there a cover or bag people use, and is there anything I should avoid doing with it on board?" },
    ],
  },
  {
    topic: 'health',
    turns: [
      {
        key: 'apnoea',
        text: "An update on the tiredness I keep complaining about. After months of waking up exhausted, my GP finally sent me for an overnight sleep study. I spent a night wired up at Hospital São João, and the results came back last week: moderate obstructive apnoea, around twenty pauses an hour. They've put me on a CPAP machine, and I'm supposed to wear the mask every night. The first three nights were awful, I kept pulling it off in my sleep, and the air felt too strong. Is it normal to struggle this much at the start, and what helps people get used to it?",
        echo: 'Struggling with a CPAP mask for the first weeks after an apnoea diagnosis is very common.',
      },
      { text: "My partner says I still snore sometimes even with the machine on, though much less. Should I mention that to the clinic, or is some snoring expected? I also wonder whether losing some weight and cutting out the glass of wine at dinner would make a real difference, or whether that only matters for people with more severe cases." },
    ],
  },
  {
    topic: 'career',
    turns: [
      {
        key: 'aws',
        text: "Work news: after a lot of back and forth, my company agreed to pay for the AWS Solutions Architect Associate certification, including a course and two exam attempts, on the condition that I stay at least a year afterwards. The exam is booked for the 12th of next month. I use AWS daily but only a small corner of it, mostly Lambda and DynamoDB, and the practice tests show I'm weak on networking and anything to do with VPCs. I have about an hour each evening to study. How would you plan the four weeks, and is the one-year condition normal?",
        echo: 'The Solutions Architect Associate exam in four weeks is doable with an hour a day if you focus on networking.',
      },
      { text: "Related question: once I have it, how do I make it count? I don't want it to just sit on my profile. I'd like to move towards architecture work within the team, but our architect has been here ten years and does most of that himself. How do I start taking on design work without stepping on his toes?" },
    ],
  },
  {
    topic: 'garden',
    turns: [
      {
        key: 'fig',
        text: "Good news from the back garden for once. The fig tree that our neighbour Dona Rosa gave us as a cutting three years ago finally produced fruit this summer, about thirty figs, and they were delicious. It's in a big pot by the south wall and has grown taller than me. I'd like to keep it productive but also stop it from taking over that corner, because the tomatoes next to it were in shade by August. I've read that you can prune figs hard, but also that you lose the next year's crop if you do it wrong. When and how should I prune it?",
        echo: 'A fig from a cutting of Dona Rosa fruiting after three years is a great result, and it can be pruned without losing the crop.',
      },
      { text: "The pot question too: it's in a plastic tub of about sixty litres, and the roots are coming out of the bottom. Should I move it into the ground, go up a size, or root-prune it and keep the same pot? I'd rather keep it movable in case we leave, but I don't want to stunt it." },
    ],
  },
  {
    topic: 'fitness',
    turns: [
      {
        key: 'swim',
        text: "I've changed my training since the knee started complaining. Running is on hold for now, so I've been swimming three mornings a week at the Piscina de Campanhã before work, 2 kilometres each time, mostly front crawl with some breaststroke when I'm tired. I also do two gym sessions for the legs, very light, as the physio said. It's going fine, but I get bored doing length after length, and my times aren't improving at all after six weeks. I used to follow proper plans for running. What would a sensible swim plan look like for someone like me, with some structure to it?",
        echo: 'Two kilometres three mornings a week at the Piscina de Campanhã is a solid base, and structure will make it less boring.',
      },
      { text: "I also have trouble with breathing in front crawl. I can only breathe to my right, and when I try the left side I swallow water and lose my rhythm. People say bilateral breathing is better for the shoulders. Is it worth forcing myself to learn it now, and what drills help with it?" },
    ],
  },
  {
    topic: 'photo',
    turns: [
      {
        key: 'sigma',
        text: "Camera update. I've been shooting mostly street photography and my daughter's basketball games, and the kit lens just wasn't fast enough for the gym, everything came out either blurry or grainy. So I sold it and bought a Sigma 18-35 f/1.8 for 420 euros, second-hand, from a shop in Braga. It's heavy, much heavier than I expected, and the autofocus hunts a little indoors, but the pictures are so much sharper. I'm still shooting in automatic most of the time. What settings should I use for indoor sports with a lens like this, and how do I stop the autofocus hunting?",
        echo: 'The Sigma 18-35 at f/1.8 is a strong choice for indoor sports once the settings are right.',
      },
      { text: "Another thing: my street photos feel flat compared with what I see online. I walk around the old town on Saturday mornings and take maybe two hundred pictures, and I keep five. Is that a normal ratio? And what can I do differently while shooting, not in editing, to get pictures with more depth and atmosphere?" },
    ],
  },
  {
    topic: 'pets',
    turns: [
      {
        key: 'rabbit',
        text: "Our rabbit Biscoito has had a rough few months. He stopped eating one weekend in the spring and the emergency vet found his back teeth had overgrown and were cutting his cheek. Since then he needs his teeth trimmed every six weeks at a clinic in Matosinhos that specialises in exotic pets, which costs about 60 euros each time, under sedation. He's otherwise healthy and very affectionate. We give him hay all day and a handful of greens. Is there anything in his diet or routine that could slow down the teeth problem, or is it something he'll just live with?",
        echo: 'Overgrown back teeth are common in rabbits, and it is good that Biscoito gets regular trims.',
      },
      { text: "He's also alone, and we've read that rabbits are happier in pairs. He's about four years old and neutered. Would it be a good idea to get him a companion at this point, and how does bonding two adult rabbits work in practice? We're worried about fights and about doubling the vet bills." },
    ],
  },
  {
    topic: 'cycling',
    turns: [
      {
        key: 'folding2',
        text: "A small update on the commute. The hinge on the folding bike cracked last month, right at the frame, and the shop said it wasn't worth repairing on a bike that old, so I sold it for parts and replaced it with a Tern Link D8, new, for 540 euros. It's heavier folded and doesn't fold as small, but it rides more like a normal bike and the gears are better for the hill up from the station. I also got a proper front light this time. What should I check regularly on a folding bike so the hinge doesn't fail like that again?",
        echo: 'Replacing the cracked frame with a Tern Link D8 makes sense, and hinges are worth a regular check.',
      },
      { text: "Also, I'd like to ride the whole way to work on Fridays, about eighteen kilometres, skipping the train. Is that reasonable on a folding bike with twenty-inch wheels, or will it be miserable? I'd take it slowly, and there's a shower at the office, but I've never ridden that far on small wheels." },
    ],
  },
];

const LONG_QUESTIONS: { q: string; keys: string[]; kind: LongChatKind }[] = [
  { q: 'Where are we staying on Skye?', keys: ['skye'], kind: 'single' },
  { q: 'When does Mrs. Okonkwo want me to take the next exam?', keys: ['grade'], kind: 'single' },
  { q: 'What did the roofer say is wrong around the chimney?', keys: ['roof'], kind: 'single' },
  { q: 'How much did I pay for the Brompton?', keys: ['folding'], kind: 'single' },
  { q: 'Which hospital did my apnoea study?', keys: ['apnoea'], kind: 'single' },
  { q: 'Which certification is my employer funding, and on what condition?', keys: ['aws'], kind: 'single' },
  { q: 'Who gave us the cutting that finally fruited?', keys: ['fig'], kind: 'single' },
  { q: 'How far do I swim at Campanhã?', keys: ['swim'], kind: 'single' },
  { q: 'How much was the Sigma?', keys: ['sigma'], kind: 'single' },
  { q: 'How often does Biscoito need the vet?', keys: ['rabbit'], kind: 'single' },
  { q: 'Which folding bike do I ride now, and what happened to the first one?', keys: ['folding', 'folding2'], kind: 'update' },
  { q: 'What have I spent on new gear for the commute and for photography?', keys: ['folding', 'sigma'], kind: 'multi' },
  { q: 'Which came first, the sleep study or booking the AWS exam?', keys: ['apnoea', 'aws'], kind: 'temporal' },
  { q: 'What did Telhados Silva quote?', keys: ['roof'], kind: 'single' },
];

/** assistant-chats' memories, then the new sessions (ids `R…`) from their own random stream. */
export function chatsRewordedCorpus(): Corpus {
  const base = chatsCorpus();
  const r = rng(22_22);
  const docs: CorpusDoc[] = [...base.docs];
  const factDoc = new Map<string, string>();
  layChatSessions(CHAT_SESSIONS, (i) => `R${i + 1}`, r, Date.parse(base.docs.at(-1)!.ts) + 4 * 86_400_000, docs, factDoc);
  const questions = CHAT_QUESTIONS.map((q, i): CorpusQuestion => ({ id: `tq${i + 1}`, q: q.q, evidence: q.keys.map((k) => factDoc.get(k)!), split: 'tune' }));
  return { name: 'chats-reworded', shape: 'assistant-chats plus sessions of short user turns with a fact; tuning questions only, reworded from what the user said', docs, questions };
}

export function chatsRewordedKinds(): Map<string, RewordedKind> {
  return new Map(CHAT_QUESTIONS.map((q, i) => [`tq${i + 1}`, q.kind]));
}

/** long-chats' memories, then the new sessions (ids `T…`) from their own random stream. */
export function longLexicalCorpus(): Corpus {
  const { corpus: base } = longChatsWithFacts();
  const factDoc = new Map<string, string>();
  const lay = laySessions(LONG_SESSIONS, rng(22_23), 1, Date.parse(base.docs.at(-1)!.ts) + 5 * 86_400_000, factDoc);
  const questions = LONG_QUESTIONS.map((q, i): CorpusQuestion => ({ id: `tq${i + 1}`, q: q.q, evidence: q.keys.map((k) => factDoc.get(k)!), split: 'tune' }));
  return { name: 'long-lexical', shape: 'long-chats plus sessions of long user turns with a fact in one sentence; tuning questions only, naming a rare word', docs: [...base.docs, ...lay.docs], questions };
}

export function longLexicalKinds(): Map<string, LongChatKind> {
  return new Map(LONG_QUESTIONS.map((q, i) => [`tq${i + 1}`, q.kind]));
}

/**
 * Long user turns: a tuning-only companion of long-chats (every question `split: "tune"`, ids `tq…`), written after
 * long-chats' first run showed that its short, fact-dense user turns are easy for the vector signal (R@10 0.955 on
 * its tune half, BM25 0.750), unlike the held-out long histories where BM25 leads. Here the user writes the way
 * people paste context into an assistant: a turn of 90–200 words about a plan or a problem, with the fact a later
 * question asks about said in one sentence inside it (a name, a brand, a place, an amount), and the assistant's long
 * answer often repeats the user's rare words. A question names one of those rare words and rewords the rest, so the
 * lexical signal should find the turn while the turn's vector is spread over everything else it says.
 *
 * Kinds as in long-chats (single, multi, temporal, update), for reading by kind.
 */
import { answer, longChatsWithFacts, REQUESTS, type LongChatKind, type Topic } from './long-chats.js';
import { pick, rng, sample, type Corpus, type CorpusDoc, type CorpusQuestion } from './format.js';

export interface LongTurn {
  text: string;
  key?: string;
  echo?: string;
}

export interface LongSession {
  topic: Topic;
  turns: LongTurn[];
}

const SESSIONS: LongSession[] = [
  {
    topic: 'travel',
    turns: [
      {
        key: 'hostel',
        text: "Okay, so here's the situation. My partner and I are planning three weeks in Japan next spring, and we're trying to keep it under budget without it feeling like a backpacking trip from our twenties. We land in Osaka and fly home from Tokyo. In Kyoto we already paid a deposit at a small place called Gion Hanami Lodge, 14,000 yen a night, which felt steep but it's walking distance to everything. We'd like to add Kanazawa and maybe somewhere in the Alps, and we're not sure whether the rail pass still makes sense after the price went up. We also don't want to spend every evening on trains. Could you sketch a route that balances cities and countryside, and tell us whether the rail pass is worth it for that route?",
        echo: 'Three weeks from Osaka to Tokyo with a base at Gion Hanami Lodge in Kyoto is a great start, and the rail pass question depends on how far you go.',
      },
      { text: 'Thanks. One more thing on this trip: we both get a bit overwhelmed by crowds, so how do we see the famous temples without fighting through tour groups? Early mornings are fine for us, we are early risers anyway, but we would rather not set alarms for four every day of the holiday. Is there a pattern to when places are quieter, by weekday or season, that we could plan around?' },
    ],
  },
  {
    topic: 'home',
    turns: [
      { text: "We finally have a free weekend and I want to sort out the spare room, which has turned into a dumping ground since we moved. There are boxes of books, an old sofa bed nobody sleeps on, my partner's drum kit, and a desk I never use because the light is terrible. I'd like it to work as an office most days and a guest room a few times a year. We rent, so nothing permanent, and the budget is small. How would you approach it, and what should we get rid of first?" },
      {
        key: 'boiler2',
        text: "Different topic but related to the flat. The boiler broke down again on Sunday night, the third time since October, and this time the engineer from Porto Gás Assistência said the heat exchanger is cracked and the whole unit is basically finished. The landlord, Senhor Amaral, says he'll replace it but not until after the holidays, so we're on electric heaters for now, which is going to destroy our bill. We already close the doors of rooms we don't use and we've put a draught excluder under the front door. What else can we do to keep the bill down for a month or two, and what should we ask the landlord to put in writing about the replacement?",
        echo: 'A cracked heat exchanger does usually mean a new boiler, and it is worth getting Senhor Amaral to put the replacement date in writing.',
      },
    ],
  },
  {
    topic: 'career',
    turns: [
      {
        key: 'offer',
        text: "I need a second opinion. I've been at Koala Labs for almost four years, I like the team, and the work on the data platform is interesting, but my salary has barely moved. Last week a recruiter from a fintech called Lumen Pay reached out, and after three interviews they offered me 78,000 plus a signing bonus, which is about twenty percent more than I make now. The catch is that they want five days in the office in Lisbon, and I'd have to move. My manager hinted there might be a promotion cycle in spring, but nothing concrete. How do I think this through without just chasing the money, and should I tell my manager about the offer?",
        echo: 'An offer of 78,000 from Lumen Pay is a serious one, and it is worth weighing it against more than the salary.',
      },
      { text: "If I do stay, how do I bring up pay with my manager in a way that doesn't sound like a threat? I've never negotiated before, and honestly the idea of it makes me anxious. I'd like to walk in with something concrete, like numbers from the market and a list of what I've delivered this year, but I don't know how much detail is too much or how to handle it if the answer is simply no." },
    ],
  },
  {
    topic: 'pets',
    turns: [
      {
        key: 'kibble',
        text: "Pixel has been having an upset stomach on and off for a couple of weeks, nothing dramatic, but loose stools and she's pickier than usual. We changed a few things around the same time, so it's hard to tell what's causing it: we started a new walker on weekdays, we moved her bed to the living room, and we switched her food from the chicken one to Acana Freshwater Fish because the shop ran out. She's eating, drinking and playing normally. Is this something to wait out for a few days or should we go to the vet now, and how would you work out which change is the problem?",
        echo: 'Switching to Acana Freshwater Fish suddenly could easily explain an upset stomach, although the other changes may play a part.',
      },
      { text: "She's also started barking at the window whenever someone walks past with another dog, which she never used to do. It's not aggressive exactly, more excited and frustrated, but it goes on for a while and the neighbours have noticed. We don't want to punish her for it. What do people usually do about window barking in a flat, and is it related to the stomach thing or to all the changes at once?" },
    ],
  },
  {
    topic: 'finance',
    turns: [
      {
        key: 'mortgage',
        text: "We're getting serious about buying. We've been saving for three years and have a deposit of about 45,000, and we've been looking at two-bedroom flats in Porto between 250,000 and 280,000. The bank, Millennium BCP, pre-approved us for a mortgage at a variable rate, Euribor plus 0.9, over 35 years, but everyone we talk to says something different about fixed versus variable right now. We're both in stable jobs and don't plan to move for at least ten years. How should we think about fixed versus variable, and is 35 years too long?",
        echo: 'A pre-approval from Millennium BCP at Euribor plus 0.9 is a good starting point, and the fixed or variable choice depends on how much risk you can carry.',
      },
      { text: "And what costs should we budget for on top of the deposit? I keep reading about taxes and fees that people forget, and I don't want to get to the notary and discover we're short. We have a little put aside beyond the deposit, but not a lot, and we'd rather know now than scramble at the end. A rough list with typical ranges would be really helpful." },
    ],
  },
  {
    topic: 'health',
    turns: [
      {
        key: 'migraine',
        text: "I've been getting headaches a lot more this autumn, maybe two or three a week, mostly in the afternoon at work. I drink plenty of water, I'm not on screens more than usual, and I've cut down on coffee. My neurologist, Dr. Rebelo, thinks they're migraines without aura and prescribed sumatriptan to take at the first sign, and asked me to keep a diary for two months. I'm a bit sceptical about the diary, to be honest, it feels like homework. What should I actually write down in it so it's useful, and are there common triggers people overlook?",
        echo: 'A diary for Dr. Rebelo is more useful than it sounds, especially with sumatriptan in the picture.',
      },
      { text: "Also, is there anything I can change about my desk setup or my workday that might help with headaches in general? I sit at the same desk from nine to six, next to a big window, and I tend to skip lunch when things are busy. I've read conflicting things about screen brightness, blue light and posture, so a short list of what actually has evidence behind it would help." },
    ],
  },
  {
    topic: 'cooking',
    turns: [
      { text: "I want to get better at cooking during the week. Right now it's pasta three times, something from the freezer twice, and takeaway at the weekend, and I'm bored of it. I'm happy to spend a couple of hours on Sunday preparing things, but weeknights have to be twenty minutes at most because I get home late. I eat meat but I'd like to cook more vegetables. Could you suggest a Sunday prep routine and five weeknight dinners that build on it?" },
      {
        key: 'oven',
        text: "Follow-up on the cooking: part of the problem is my kitchen. It's tiny, with two gas rings and an oven that doesn't hold its temperature, so roasting is hit and miss. I finally ordered a Ninja Foodi air fryer, the dual-basket one, for 189 euros in the Black Friday sales, and it arrives next week. I've seen people do everything in these, from chicken thighs to cakes, but also people saying it's a glorified fan oven. How would you fit it into the Sunday prep and the weeknight dinners you suggested, and what should I avoid cooking in it?",
        echo: 'A dual-basket Ninja Foodi will take a lot of pressure off a small kitchen with an unreliable oven.',
      },
    ],
  },
  {
    topic: 'fitness',
    turns: [
      {
        key: 'coach',
        text: "So after the half marathon I kind of lost motivation. I was running four times a week through the autumn and now I'm lucky to get out once. It's dark, it's cold, and without a race on the calendar I don't see the point. A friend from work, Joana, runs with a club called Corredores da Foz on Tuesday and Thursday evenings, and she keeps inviting me, but I'm worried I'll be the slowest and hold everyone back. I'd also like to keep lifting at home twice a week. How do I get back into a routine over the winter without burning out?",
        echo: 'Joining Joana at Corredores da Foz could be exactly the structure you need over the winter.',
      },
      { text: "What would a realistic week look like if I want to run three times and lift twice, with a full-time job? I'm worried about doing too much, and I don't really know how to fit the hard and easy days together. Should the club runs be my hard days, and does it matter whether I lift before or after running on the same day?" },
    ],
  },
  {
    topic: 'garden',
    turns: [
      {
        key: 'olive',
        text: "My aunt is moving into a care home and she's asked me to take some of her plants, which is lovely but slightly terrifying. Most are houseplants, but there's an old olive tree in a huge terracotta pot that she's had for about thirty years, and she's very attached to it. It will have to live on our balcony, which faces west and gets strong afternoon sun and a lot of wind. I know nothing about olive trees. How do I move it without killing it, and how should I look after it through its first winter with us?",
        echo: 'A thirty-year-old olive tree in terracotta is tougher than it looks, and a west-facing balcony can suit it well.',
      },
      { text: "The houseplants are a mix: a couple of big monsteras, some peace lilies, a fiddle leaf fig that already looks unhappy, and lots of small succulents. Our flat is bright but dry in winter because of the heating. How should I group them, and what are the usual mistakes people make when they suddenly inherit a lot of plants at once?" },
    ],
  },
  {
    topic: 'music',
    turns: [
      {
        key: 'keyboard',
        text: "Now that I'm taking piano more seriously, the cheap keyboard I started on is holding me back. The keys are light and springy, and Hugo says I'm building bad habits with my touch. I've been reading reviews for weeks and narrowed it down to two digital pianos. Yesterday I played both in a shop in Boavista and ended up putting a deposit on a Roland FP-30X, 650 euros, because the action felt closest to the grand at my lesson. It's going in the living room. How should I set it up, and is it worth buying a proper bench and pedal unit right away?",
        echo: 'The Roland FP-30X is a good choice at 650 euros, and its action is one of the best at that price.',
      },
      { text: "Also, my neighbours. We live in an old building with thin walls and I practise in the evenings after work. With a digital piano I can use headphones, but I'd like to play out loud sometimes, especially at the weekend. What's a reasonable way to handle this, and are there good headphones for piano that won't leave my ears ringing after an hour?" },
    ],
  },
  {
    topic: 'photo',
    turns: [
      { text: "I've been shooting a lot more since I got the camera, but my photos from the Azores trip were disappointing. Landscapes that looked amazing in person come out flat, the skies are often white, and the colours of the lakes never match what I saw. I shot everything in JPEG because I didn't want to deal with editing. Is this a settings problem, an editing problem, or just my eye? And where should I start to improve landscape shots specifically?" },
      {
        key: 'drone',
        text: "Related: for the next trip I'm tempted to try aerial shots. A colleague is selling his DJI Mini 3 with three batteries and the remote for 380 euros, and I've said yes, I'm picking it up on Friday. I know there are rules about where you can fly and I've heard you have to register, but I don't know the details for Portugal or for Spain, where we're going in April. What do I need to sort out legally before I fly it, and any tips for a complete beginner so I don't crash it on day one?",
        echo: 'A DJI Mini 3 with three batteries for 380 euros is a great way to start with aerial photography, and the rules are manageable.',
      },
    ],
  },
  {
    topic: 'cycling',
    turns: [
      {
        key: 'theft',
        text: "Bad week. Someone stole the Cannondale from the bike room in our building on Tuesday night. They cut through a cable lock, which I know now was a mistake, but the bike room has a key and I thought it was safe. I reported it to the PSP and filed a claim with my home insurer, Fidelidade, who say they'll cover it minus a 150 euro excess if I can prove the value. I still have the receipt and the serial number, luckily. What should I do to improve my chances of getting it back, and what kind of lock setup should I use for the next bike?",
        echo: 'Having the receipt and the serial number for the stolen Cannondale will make the Fidelidade claim much easier.',
      },
      { text: "For the replacement I'm wondering whether to get the same kind of gravel bike again or something different, maybe an endurance road bike, since most of my weekend rides turned out to be on tarmac anyway. I'd like something comfortable for three or four hours, with room for wider tyres. What are the real differences between the two for someone like me, and what should I look for when I test ride?" },
    ],
  },
];

const QUESTIONS: { q: string; keys: string[]; kind: LongChatKind }[] = [
  { q: 'How much a night is the Gion Hanami Lodge?', keys: ['hostel'], kind: 'single' },
  { q: 'What did the engineer from Porto Gás say was wrong with the boiler?', keys: ['boiler2'], kind: 'single' },
  { q: 'How much did Lumen Pay offer me?', keys: ['offer'], kind: 'single' },
  { q: 'Which food did we switch Pixel to?', keys: ['kibble'], kind: 'single' },
  { q: 'What rate did Millennium BCP pre-approve us for?', keys: ['mortgage'], kind: 'single' },
  { q: 'What did Dr. Rebelo prescribe for my headaches?', keys: ['migraine'], kind: 'single' },
  { q: 'How much did the Ninja air fryer cost me?', keys: ['oven'], kind: 'single' },
  { q: 'Which running club does Joana go to?', keys: ['coach'], kind: 'single' },
  { q: "How old is my aunt's olive tree?", keys: ['olive'], kind: 'single' },
  { q: 'Which digital piano did I put a deposit on?', keys: ['keyboard'], kind: 'single' },
  { q: 'How much did I pay my colleague for the DJI drone?', keys: ['drone'], kind: 'single' },
  { q: 'Which insurer is covering the stolen bike, and what is the excess?', keys: ['theft'], kind: 'single' },
  { q: 'What happened to the Cannondale I bought for weekend rides?', keys: ['cannondale', 'theft'], kind: 'update' },
  { q: 'What have I bought for my hobbies recently, and for how much?', keys: ['keyboard', 'drone'], kind: 'multi' },
  { q: 'Which did I tell you about first, the Lumen Pay offer or the mortgage pre-approval?', keys: ['offer', 'mortgage'], kind: 'temporal' },
  { q: 'What has happened with Pixel since we adopted her?', keys: ['pixel', 'pixel2', 'kibble'], kind: 'multi' },
];

/**
 * The evaluation half, written after the tune half had been tuned on and before any retrieval ran on it: twelve more
 * sessions of the same shape (a long user turn with the fact in one sentence, an answer that repeats the user's
 * rare words, a second long turn on the topic without the fact, a short request), laid out after the tune sessions
 * from their own random stream so the tune sessions stay byte-identical, and 16 questions, all `split: "eval"`
 * (ids `eq…`): 11 naming a rare word of the evidence, 2 updates of an earlier fact, 2 spanning sessions, 1 order.
 */
const EVAL_SESSIONS: LongSession[] = [
  {
    topic: 'travel',
    turns: [
      {
        key: 'ferry',
        text: "We're finally doing the Greek islands this summer, two weeks at the end of June, just the two of us. The plan is Athens for two nights, then Naxos, then maybe Paros or Milos depending on how tired we are. I've already booked the first leg with Blue Star Ferries from Piraeus to Naxos, 68 euros each for deck seats, leaving at half past seven in the morning, because the fast catamarans were almost double and I get seasick on them anyway. What I can't decide is whether to rent a car on Naxos or rely on buses and the odd taxi, and whether the second island is worth the extra ferry day. Could you help me think through the route and how much slack to leave between boats in case of strikes or wind?",
        echo: 'Blue Star Ferries from Piraeus to Naxos on deck seats is the relaxed way to start, and the slow ferries are steadier for anyone who gets seasick.',
      },
      { text: "Another thing for the islands: we'd like at least a few days where we do nothing at all, just a beach and a book, but both of us get restless after a day or two. How do people usually mix lazy days and active days on a trip like this without feeling guilty either way? We like walking, swimming and eating well, and we're not into nightlife or boat parties at all." },
    ],
  },
  {
    topic: 'home',
    turns: [
      { text: "Our living room still feels unfinished even though we moved in over a year ago. The walls are done and we love the colour, but the room echoes, the lighting is one harsh ceiling lamp, and there's nowhere comfortable for more than two people to sit. We have a big bare wall opposite the window and a rug that's too small. What would you change first if the budget has to stretch over a few months, and what makes the biggest difference to how a room feels in the evening?" },
      {
        key: 'sofa',
        text: "Quick update on the living room project. We spent a whole Saturday sitting on sofas across three shops and finally ordered one: a Sits Hanna three-seater in rust velvet, 1,290 euros, with a delivery time of eight weeks, which feels like forever. My partner wanted grey, I wanted something warmer, and the rust won after a long debate in the car park. The old sofa is going to a friend who's just moved. Now I'm worried about the velvet with the dog and the afternoon sun, and about whether the rust will clash with the curtains we already have. How do we look after velvet, and how do we tie the colour into the rest of the room?",
        echo: 'A Sits Hanna in rust velvet can anchor the whole living room, and velvet is more forgiving with dogs and sun than people expect.',
      },
    ],
  },
  {
    topic: 'career',
    turns: [
      {
        key: 'course',
        text: "Work news, mostly good. In my review my manager Ingrid said I should aim at a tech lead role within a year, and when I said I'd like to get deeper into cloud architecture she approved 1,200 euros of training budget for the AWS Solutions Architect course and the exam. The catch is that it has to be done by the end of the quarter, so roughly ten weeks, while the team is short-staffed and I'm on call every third week. I've never studied for a certification while working full time. How should I plan the ten weeks so I actually pass, and how do I protect study time without looking like I'm slacking on the team?",
        echo: 'With 1,200 euros from Ingrid for the AWS Solutions Architect course and ten weeks to go, a steady plan will get you there.',
      },
      { text: "Also, the tech lead thing. I'm not sure I even want it, to be honest. I like writing code and I'm worried that leading means meetings all day and reviewing other people's work instead of building anything myself. How do people figure out whether they want to move towards leading or stay on the individual contributor path, and is it easy to go back if I try it and hate it?" },
    ],
  },
  {
    topic: 'pets',
    turns: [
      {
        key: 'noodle3',
        text: "Noodle again, our old cat. She's been eating on one side of her mouth for a week and dropping bits of food, and she's drooling a little, which she never does. We took her to a different clinic this time because our usual vet was on holiday, and Dr. Sampaio found a dental abscess on an upper molar. She wants to extract it under general anaesthetic on the 12th of March, 320 euros with the blood tests, and she's worried about the anaesthetic because of Noodle's age and her thyroid. Noodle is thirteen. How worried should we be about the anaesthetic, and how do we look after her in the days after the extraction?",
        echo: "A dental abscess is painful, and Dr. Sampaio's plan to extract the molar on the 12th of March with blood tests first is the careful way to do it at Noodle's age.",
      },
      { text: "And a general question about older cats: Noodle sleeps most of the day now, she's stopped jumping on the bed, and she's become much more vocal at night, especially around three in the morning. Is that just age, or are there things we should be asking the vet about? We want her to be comfortable, not to over-medicalise every change, and we'd like to know what's worth watching." },
    ],
  },
  {
    topic: 'finance',
    turns: [
      { text: "I want to get a proper handle on our household spending. At the moment money comes in, bills go out, and whatever's left at the end of the month is what we save, which is not much and not predictable. We've tried apps before and given up after a couple of weeks. We're two adults with no kids, decent salaries, a car loan and rent. What's the simplest system that actually sticks, and how often should we sit down together to look at it without it turning into an argument?" },
      {
        key: 'etf3',
        text: "Some progress to report on investing. After the bonus came through in January I raised the Trade Republic savings plan again, from 400 to 600 euros a month, and split it: 500 still goes into the FTSE All-World ETF and the other 100 into an emerging markets fund, the Xtrackers MSCI Emerging Markets. I've read that the All-World already holds emerging markets, so maybe I'm doubling up, but I liked the idea of a bit more weight there for the long run. I'm not touching the money for at least fifteen years. Is the extra emerging markets slice a reasonable tilt or just noise, and should I be rebalancing once a year?",
        echo: 'Raising the Trade Republic plan to 600 euros a month with a slice of Xtrackers MSCI Emerging Markets next to the FTSE All-World is a mild tilt, not a doubling up.',
      },
    ],
  },
  {
    topic: 'health',
    turns: [
      {
        key: 'physio',
        text: "My knee has been bothering me since I started the longer runs. It's a dull ache just below the kneecap that's worse going down stairs and after I've been sitting for a while, and it warms up after ten minutes of running, which I know isn't a reason to ignore it. I finally went to a physio, Marta Lopes at the Clínica do Dragão, and she diagnosed patellar tendinopathy. She's given me eccentric squats on a decline board, three sets of fifteen twice a day, and said I can keep running if the pain stays under three out of ten. I've never done rehab properly before, I usually get bored and stop. How do I stick to it, and how do I judge the three out of ten honestly?",
        echo: "Patellar tendinopathy usually responds well to the decline squats Marta Lopes gave you, as long as you keep the pain under three out of ten.",
      },
      { text: "On a related note, I'm starting to think my running shoes are part of the problem. They're about two years old and I've no idea how many kilometres they've done, probably over a thousand. I run mostly on pavement with some trails at the weekend. How do I know when shoes are actually worn out, and is it worth going to a running shop for a gait analysis or is that mostly marketing?" },
    ],
  },
  {
    topic: 'cooking',
    turns: [
      {
        key: 'sourdough',
        text: "I've caught the bread bug. A friend from the pottery course gave me some of her sourdough starter, which she says comes from one her grandmother kept going for forty years, and I've named mine Bartolomeu because it seemed to need a serious name. I've baked three loaves so far with Caputo flour and they taste great but they come out flat, spreading sideways instead of rising, and the crumb is dense at the bottom. My kitchen is cold in winter, maybe seventeen degrees, and I feed the starter once a day. What am I most likely doing wrong, and how do I tell when the dough is ready to shape?",
        echo: 'Bartolomeu sounds like a healthy starter, and flat loaves in a cold kitchen usually mean the dough needs longer before shaping.',
      },
      { text: "Besides bread, what else can I do with the discard? Every time I feed the starter I throw away a cup of it and it feels wasteful. I've seen pancakes and crackers online but I'd like a few things I could actually make on a weeknight without much fuss, ideally savoury, and ideally things that keep for a few days in a tin or the fridge." },
    ],
  },
  {
    topic: 'garden',
    turns: [
      { text: "I'm thinking ahead to spring and I'd like to grow more of our own vegetables this year. Last year was a mix of successes and disasters: the courgettes took over, the carrots never came up, and the lettuce bolted in a week of heat. I have limited time, maybe four hours a week, and I'd rather grow a few things well than everything badly. Which vegetables give the most for the least effort in a warm, dry summer, and what should I stop bothering with?" },
      {
        key: 'allotment',
        text: "Good news on the garden front. After two years on the waiting list we finally got a proper allotment at the Quinta do Covelo community gardens, plot number 17, with a water tap right next to it, for 60 euros a year. It's three times the size of the old one and it's been neglected, so it's full of brambles and couch grass, and there's a broken shed in the corner that's ours to deal with. The association wants the plot cultivated within six months or we lose it. Where do we start with a plot this overgrown, and is it worth covering part of it with cardboard for a season instead of digging everything?",
        echo: 'Plot 17 at Quinta do Covelo with a tap next to it is a great find, and cardboard over part of the brambles will save you a lot of digging.',
      },
    ],
  },
  {
    topic: 'music',
    turns: [
      {
        key: 'choir',
        text: "Something new, alongside the piano. I joined a choir! It's the Coro da Lapa, an amateur choir that rehearses on Wednesday evenings in the church hall, and after the audition they put me with the tenors, which surprised me because I always thought I was a baritone. We're preparing the Fauré Requiem for a concert in December, and everyone else seems to read the score fluently while I'm still counting bars on my fingers. I read piano music fine, but following one line among four and coming in at the right moment is a different skill. How do I learn my part between rehearsals, and how do I stop losing my place?",
        echo: 'The Fauré Requiem is a lovely first concert with the Coro da Lapa, and learning the tenor line between rehearsals gets easier quickly.',
      },
      { text: "Also, my voice gets tired after the two-hour rehearsals, and on Thursdays it's a bit hoarse at work, which is awkward because I'm in meetings most of the day. Is that normal for a beginner, or am I doing something wrong with how I sing? I don't want to damage anything, and nobody in the choir has said anything about technique yet." },
    ],
  },
  {
    topic: 'photo',
    turns: [
      { text: "I want to start printing more of my photos rather than leaving them on a hard drive. I've done one framed print so far and it looked much better than I expected, but I have no idea how to choose which shots deserve printing, what size works for which kind of picture, or whether to print at home or use a lab. Most of my photos are landscapes and street shots from trips. How would you go about building a small set of prints for our walls over the next year?" },
      {
        key: 'exhibition',
        text: "I'm a little bit giddy. I submitted three photos to an open call for a group exhibition about the river, and one of them was accepted: the long exposure of the Luís I bridge at dusk. It'll hang at the Galeria Geraldes da Silva for three weeks in May, alongside about twenty other local photographers, and they want a print 60 by 90 centimetres, framed, delivered by the end of April. I've never printed anything that big, and I'm not sure my file will hold up at that size. What should I check in the file before sending it to a lab, and what should I ask the lab?",
        echo: 'Having the Luís I bridge at dusk accepted by the Galeria Geraldes da Silva is a great result, and a 60 by 90 print is very doable from a good file.',
      },
    ],
  },
  {
    topic: 'cycling',
    turns: [
      {
        key: 'endurace',
        text: "Right, the replacement bike. After all the test rides I went for a road bike this time, not gravel: a Canyon Endurace CF 7, 2,199 euros, ordered online and it came in a huge box last Thursday. It took me an evening and a few videos to put it together, and I'm still not sure the brakes are set up properly. Fidelidade paid out for the stolen one in the end, minus the excess, which covered about two thirds of it. This time I also bought a Kryptonite New York lock and I'm keeping the bike in the flat, not the bike room. What should I check on a bike I assembled myself before my first long ride, and how should I break in the new saddle?",
        echo: 'A Canyon Endurace CF 7 is a comfortable choice for long tarmac rides, and a few checks on a bike you assembled yourself are worth doing before a long ride.',
      },
      { text: "And for the longer rides themselves, I'd like to build up to a hundred kilometres by the summer. Right now my longest is about sixty, and I run out of energy in the last hour. What should I eat and drink on the bike, how do I pace myself on the climbs, and how quickly can I reasonably add distance without wrecking my legs for the week?" },
    ],
  },
  {
    topic: 'fitness',
    turns: [
      {
        key: 'marathon',
        text: "Okay, I've done something slightly crazy. Riding on the good feeling from the club runs, I signed up for the Maratona do Porto in November, my first full marathon. The coach at Corredores da Foz, Rui Pinto, wrote me a sixteen-week plan aiming for 3 hours 45, with four runs a week and the long run going up to 32 kilometres. I'm a bit scared of the long runs, the furthest I've ever gone is the half. I'm also worried about the knee, although the physio exercises seem to be helping. How do I fit four runs and the knee exercises around work without being exhausted all the time, and what usually goes wrong for first-time marathoners?",
        echo: 'A first Maratona do Porto with a 3 hours 45 plan from Rui Pinto is ambitious but realistic if the long runs build slowly.',
      },
      { text: "Also, nutrition for the training block. I've heard that I need to eat a lot more carbohydrate, but I don't want to gain weight, and I'm never sure what to eat before an early run when I'm not hungry at all. What does a normal training day of eating look like for someone running four times a week, and do I need gels on the long runs or is that only for the race?" },
    ],
  },
];

const EVAL_QUESTIONS: { q: string; keys: string[]; kind: LongChatKind }[] = [
  { q: 'How much were the Blue Star ferry tickets to Naxos?', keys: ['ferry'], kind: 'single' },
  { q: 'What colour is the Sits sofa we ordered?', keys: ['sofa'], kind: 'single' },
  { q: 'How much training budget did Ingrid approve for me?', keys: ['course'], kind: 'single' },
  { q: 'When is Noodle booked in with Dr. Sampaio?', keys: ['noodle3'], kind: 'single' },
  { q: 'What did Marta the physio say is wrong with my knee?', keys: ['physio'], kind: 'single' },
  { q: 'What did I call my sourdough starter?', keys: ['sourdough'], kind: 'single' },
  { q: 'Which plot did we get at Quinta do Covelo, and what does it cost?', keys: ['allotment'], kind: 'single' },
  { q: 'What is the Coro da Lapa singing at the December concert?', keys: ['choir'], kind: 'single' },
  { q: 'Which of my photos did the Galeria Geraldes da Silva accept?', keys: ['exhibition'], kind: 'single' },
  { q: 'What finish time is Rui Pinto training me for?', keys: ['marathon'], kind: 'single' },
  { q: 'What did I pay for the Canyon?', keys: ['endurace'], kind: 'single' },
  { q: 'How much goes into my Trade Republic plan each month now?', keys: ['etf2', 'etf3'], kind: 'update' },
  { q: 'What bike do I ride at the weekend now that the Cannondale is gone?', keys: ['theft', 'endurace'], kind: 'update' },
  { q: 'What has the vet found wrong with Noodle over time?', keys: ['noodle1', 'noodle3'], kind: 'multi' },
  { q: 'Which running injuries and plans have I told you about since the half marathon?', keys: ['physio', 'marathon'], kind: 'multi' },
  { q: 'Which did I start first, the choir or the sourdough?', keys: ['sourdough', 'choir'], kind: 'temporal' },
];

/** Lays sessions out from `t` on (ids `T<first + i>`), each with one short request of its topic among its turns. */
export function laySessions(sessions: readonly LongSession[], r: () => number, first: number, start: number, factDoc: Map<string, string>): { docs: CorpusDoc[]; end: number } {
  const docs: CorpusDoc[] = [];
  let t = start;
  sessions.forEach((s, i) => {
    const session = `T${first + i}`;
    // One short request of the topic before or after the long turns, as people also ask quick things.
    const turns: LongTurn[] = [...s.turns];
    turns.splice(Math.floor(r() * (turns.length + 1)), 0, { text: pick(r, sample(r, REQUESTS[s.topic], 3)) });
    let n = 0;
    for (const turn of turns) {
      const uid = `${session}:${++n}`;
      docs.push({ id: uid, type: 'message', name: 'user', session, ts: new Date(t).toISOString(), content: turn.text });
      if (turn.key) factDoc.set(turn.key, uid);
      t += (2 + Math.floor(r() * 4)) * 60_000;
      docs.push({ id: `${session}:${++n}`, type: 'message', name: 'assistant', session, ts: new Date(t).toISOString(), content: answer(r, s.topic, turn.echo) });
      t += (3 + Math.floor(r() * 5)) * 60_000;
    }
    t += (5 + Math.floor(r() * 6)) * 86_400_000;
  });
  return { docs, end: t };
}

/**
 * Sessions after long-chats' last one, drawn from their own stream so long-chats stays as it was; the evaluation
 * sessions after those, from a stream of their own again so the tune sessions stay as they were.
 */
export function longTurnsCorpus(): Corpus {
  const { corpus: base, factDoc: baseFacts } = longChatsWithFacts();
  const factDoc = new Map<string, string>();
  const tune = laySessions(SESSIONS, rng(22_04), 1, Date.parse(base.docs.at(-1)!.ts) + 5 * 86_400_000, factDoc);
  const held = laySessions(EVAL_SESSIONS, rng(22_05), SESSIONS.length + 1, tune.end, factDoc);
  // The earlier sessions are the haystack: long-chats' memories, then these.
  const all = [...base.docs, ...tune.docs, ...held.docs];
  const evidence = (k: string): string => factDoc.get(k) ?? baseFacts.get(k)!;
  const questions: CorpusQuestion[] = [
    ...QUESTIONS.map((q, i): CorpusQuestion => ({ id: `tq${i + 1}`, q: q.q, evidence: q.keys.map(evidence), split: 'tune' })),
    ...EVAL_QUESTIONS.map((q, i): CorpusQuestion => ({ id: `eq${i + 1}`, q: q.q, evidence: q.keys.map(evidence), split: 'eval' })),
  ];
  return { name: 'long-turns', shape: 'long-chats plus sessions of long user turns that carry a fact in one sentence; tuning questions (tq) and a later evaluation half (eq)', docs: all, questions };
}

export function longTurnsKinds(): Map<string, LongChatKind> {
  return new Map([...QUESTIONS.map((q, i) => [`tq${i + 1}`, q.kind] as const), ...EVAL_QUESTIONS.map((q, i) => [`eq${i + 1}`, q.kind] as const)]);
}

/**
 * What the demo incidents say, in the three languages of the product: per incident type, the problems
 * occupiers report (title and description, tied to a kind of room or equipment item where it matters),
 * the answers they give to the type's checklist, and what the technician and the manager write in
 * comments. Used by `seedDemo` (seed.server.ts) only.
 *
 * `{room}` in a title or description is replaced by the room's number (e.g. "ADM.1.03").
 */

export type Lang = "en" | "fr" | "nl";
/** One text in English, French and Dutch. */
export type Texts = readonly [en: string, fr: string, nl: string];

export type RoomTypeKey = "office" | "meeting" | "lab" | "sanitary";
export type EquipmentKey = "PRJ" | "SCR" | "ACU" | "RAD" | "FMH" | "COF";
export type IncidentTypeKey =
  | "equipment"
  | "climate"
  | "cleaning"
  | "leak"
  | "lighting"
  | "lab"
  | "network"
  | "printer"
  | "furniture"
  | "fire";

const LANG_INDEX: Record<Lang, 0 | 1 | 2> = { en: 0, fr: 1, nl: 2 };

/** The text in `lang`; a plain string is the same in every language ("yes", "eduroam", "2"). */
export function inLang(text: Texts | string, lang: Lang): string {
  return typeof text === "string" ? text : text[LANG_INDEX[lang]];
}

export interface Problem {
  title: Texts;
  description: Texts;
  /** Reported on an equipment item of this kind (only then). */
  item?: EquipmentKey;
  /** Only in rooms of these types. */
  rooms?: RoomTypeKey[];
  /** Answers by checklist position, instead of the type's usual ones. */
  answers?: Record<number, Texts | string>;
}

export const PROBLEMS: Record<IncidentTypeKey, Problem[]> = {
  equipment: [
    {
      item: "PRJ",
      title: ["Projector does not turn on", "Le projecteur ne s'allume pas", "Projector gaat niet aan"],
      description: [
        "The projector stays dark when we press the power button, on the remote and on the device. The standby light is off.",
        "Le projecteur reste éteint quand on appuie sur le bouton, sur la télécommande comme sur l'appareil. Le voyant de veille est éteint.",
        "De projector blijft donker als we op de aan-knop drukken, op de afstandsbediening en op het toestel. Het standby-lampje is uit.",
      ],
      answers: { 0: "yes", 1: ["Nothing: the standby light is off.", "Rien : le voyant de veille est éteint.", "Niets: het standby-lampje is uit."] },
    },
    {
      item: "PRJ",
      title: ["No HDMI signal on the projector", "Pas de signal HDMI sur le projecteur", "Geen HDMI-signaal op de projector"],
      description: [
        "Laptops connected to the HDMI cable on the table get \"No signal\". USB-C works.",
        "Les portables branchés sur le câble HDMI de la table affichent « Pas de signal ». L'USB-C fonctionne.",
        "Laptops aan de HDMI-kabel op de tafel geven \"Geen signaal\". USB-C werkt wel.",
      ],
      answers: { 0: "yes", 1: ["\"No signal\" on a blue screen.", "« Pas de signal » sur fond bleu.", "\"Geen signaal\" op een blauw scherm."] },
    },
    {
      item: "SCR",
      title: ["Screen flickers", "L'écran clignote", "Scherm flikkert"],
      description: [
        "The wall screen flickers every few seconds, which makes presentations hard to follow.",
        "L'écran mural clignote toutes les quelques secondes, les présentations sont difficiles à suivre.",
        "Het wandscherm flikkert om de paar seconden, presentaties zijn moeilijk te volgen.",
      ],
      answers: { 0: "yes", 1: ["The picture goes black for a second, again and again.", "L'image devient noire une seconde, encore et encore.", "Het beeld wordt telkens een seconde zwart."] },
    },
    {
      item: "SCR",
      title: ["Display screen shows no picture", "L'écran n'affiche rien", "Scherm toont geen beeld"],
      description: [
        "The screen turns on (the logo appears) but then stays black whatever input we choose.",
        "L'écran s'allume (le logo apparaît) puis reste noir, quelle que soit l'entrée choisie.",
        "Het scherm gaat aan (het logo verschijnt) maar blijft daarna zwart, welke ingang we ook kiezen.",
      ],
      answers: { 0: "yes", 1: ["Logo, then a black screen.", "Le logo, puis un écran noir.", "Het logo, daarna een zwart scherm."] },
    },
    {
      item: "COF",
      title: ["Coffee machine leaks", "La machine à café fuit", "Koffiemachine lekt"],
      description: [
        "There is a puddle under the coffee machine every morning; the drip tray looks cracked.",
        "Il y a une flaque sous la machine à café chaque matin ; le bac d'égouttage semble fissuré.",
        "Elke ochtend ligt er een plas onder de koffiemachine; de lekbak lijkt gebarsten.",
      ],
      answers: { 0: "yes", 1: ["Water runs out underneath while it makes coffee.", "De l'eau coule dessous pendant qu'elle fait le café.", "Er loopt water onderuit terwijl ze koffie zet."] },
    },
    {
      item: "COF",
      title: ["Coffee machine asks to be descaled", "La machine à café demande un détartrage", "Koffiemachine vraagt om te ontkalken"],
      description: [
        "The display says \"Descale\" and the machine refuses to make coffee.",
        "L'écran affiche « Détartrer » et la machine refuse de faire du café.",
        "Het scherm toont \"Ontkalken\" en de machine weigert koffie te zetten.",
      ],
      answers: { 0: "yes", 1: ["\"Descale\" on the display.", "« Détartrer » à l'écran.", "\"Ontkalken\" op het scherm."] },
    },
    {
      title: ["Electric blinds are stuck", "Le store électrique est bloqué", "Elektrische zonnewering zit vast"],
      description: [
        "The blinds of room {room} stay down; the wall switch does nothing.",
        "Les stores du local {room} restent baissés ; l'interrupteur mural ne fait rien.",
        "De zonnewering van lokaal {room} blijft beneden; de schakelaar aan de muur doet niets.",
      ],
      answers: { 0: "yes", 1: ["Nothing happens when I press the switch.", "Rien ne se passe quand j'appuie sur l'interrupteur.", "Er gebeurt niets als ik op de schakelaar druk."] },
    },
    {
      title: ["Microwave does not heat", "Le micro-ondes ne chauffe plus", "Microgolfoven warmt niet op"],
      description: [
        "The microwave turns and lights up, but the food stays cold.",
        "Le micro-ondes tourne et s'allume, mais le plat reste froid.",
        "De microgolfoven draait en brandt, maar het eten blijft koud.",
      ],
      answers: { 0: "yes", 1: ["It runs normally but does not heat.", "Il fonctionne normalement mais ne chauffe pas.", "Hij draait normaal maar warmt niet op."] },
    },
  ],
  climate: [
    {
      item: "RAD",
      title: ["Radiator cold in room {room}", "Radiateur froid dans le local {room}", "Radiator koud in lokaal {room}"],
      description: [
        "The radiator under the window stays cold, even with the valve fully open.",
        "Le radiateur sous la fenêtre reste froid, même avec la vanne grande ouverte.",
        "De radiator onder het raam blijft koud, ook met de kraan helemaal open.",
      ],
      answers: { 0: "17", 1: "no" },
    },
    {
      item: "RAD",
      title: ["Radiator makes a knocking noise", "Le radiateur fait des bruits de coups", "Radiator maakt een kloppend geluid"],
      description: [
        "Loud knocking from the radiator every few minutes, also during meetings.",
        "Des coups bruyants dans le radiateur toutes les quelques minutes, même pendant les réunions.",
        "Om de paar minuten luid geklop in de radiator, ook tijdens vergaderingen.",
      ],
      answers: { 0: "21", 1: "no" },
    },
    {
      item: "ACU",
      title: ["Air conditioning is very noisy", "La climatisation est très bruyante", "Airco maakt veel lawaai"],
      description: [
        "The unit rattles loudly when it starts; we cannot hear each other in calls.",
        "L'appareil claque fort au démarrage ; on ne s'entend plus en visioconférence.",
        "Het toestel ratelt luid bij het opstarten; we verstaan elkaar niet meer tijdens calls.",
      ],
      answers: { 0: "23", 1: "no" },
    },
    {
      item: "ACU",
      title: ["Air conditioning drips water", "La climatisation goutte", "Airco druppelt"],
      description: [
        "Water drips from the indoor unit onto the desk below it.",
        "De l'eau goutte de l'unité intérieure sur le bureau en dessous.",
        "Er druppelt water uit de binnenunit op het bureau eronder.",
      ],
      answers: { 0: "24", 1: "no" },
    },
    {
      title: ["Too cold in room {room}", "Trop froid dans le local {room}", "Te koud in lokaal {room}"],
      description: [
        "It is only 17 °C in the morning; we work with our coats on.",
        "Il ne fait que 17 °C le matin ; nous travaillons avec nos manteaux.",
        "Het is 's ochtends maar 17 °C; we werken met onze jas aan.",
      ],
      answers: { 0: "17" },
    },
    {
      title: ["Too hot in the afternoon", "Trop chaud l'après-midi", "Te warm in de namiddag"],
      description: [
        "From 2 p.m. the room goes above 28 °C with the sun on the windows.",
        "Dès 14 h, la pièce dépasse 28 °C avec le soleil sur les fenêtres.",
        "Vanaf 14 uur loopt het op tot boven 28 °C met de zon op de ramen.",
      ],
      answers: { 0: "29", 1: "no" },
    },
  ],
  cleaning: [
    {
      title: ["Bins not emptied", "Poubelles pas vidées", "Vuilbakken niet geledigd"],
      description: [
        "The bins have not been emptied since Monday and start to smell.",
        "Les poubelles n'ont pas été vidées depuis lundi et commencent à sentir.",
        "De vuilbakken zijn sinds maandag niet geledigd en beginnen te stinken.",
      ],
      answers: { 0: ["The bins by the door.", "Les poubelles près de la porte.", "De vuilbakken bij de deur."] },
    },
    {
      rooms: ["sanitary"],
      title: ["Soap dispenser empty", "Distributeur de savon vide", "Zeepdispenser leeg"],
      description: [
        "Both soap dispensers are empty, and there are no paper towels left either.",
        "Les deux distributeurs de savon sont vides, et il n'y a plus d'essuie-mains non plus.",
        "Beide zeepdispensers zijn leeg, en er zijn ook geen papieren handdoeken meer.",
      ],
      answers: { 0: ["Refill soap and paper towels.", "Recharger le savon et les essuie-mains.", "Zeep en papieren handdoeken bijvullen."] },
    },
    {
      rooms: ["sanitary"],
      title: ["Toilets are dirty", "Les toilettes sont sales", "Toiletten zijn vuil"],
      description: [
        "The toilets have not been cleaned today and there is paper on the floor.",
        "Les toilettes n'ont pas été nettoyées aujourd'hui et il y a du papier par terre.",
        "De toiletten zijn vandaag niet gekuist en er ligt papier op de grond.",
      ],
      answers: { 0: ["Toilets and floor.", "Les toilettes et le sol.", "Toiletten en vloer."] },
    },
    {
      rooms: ["office", "meeting"],
      title: ["Coffee spilled on the carpet", "Café renversé sur la moquette", "Koffie gemorst op het tapijt"],
      description: [
        "A cup of coffee was spilled near the window; the stain is still there.",
        "Une tasse de café a été renversée près de la fenêtre ; la tache est toujours là.",
        "Er is een kop koffie gemorst bij het raam; de vlek is er nog.",
      ],
      answers: { 0: ["The carpet near the window.", "La moquette près de la fenêtre.", "Het tapijt bij het raam."] },
    },
    {
      rooms: ["office", "meeting"],
      title: ["Dusty desks and windowsills", "Bureaux et rebords de fenêtre poussiéreux", "Stoffige bureaus en vensterbanken"],
      description: [
        "The desks and windowsills of room {room} have not been dusted for weeks.",
        "Les bureaux et les rebords de fenêtre du local {room} n'ont pas été dépoussiérés depuis des semaines.",
        "De bureaus en vensterbanken van lokaal {room} zijn al weken niet afgestoft.",
      ],
      answers: { 0: ["Desks and windowsills.", "Les bureaux et les rebords de fenêtre.", "Bureaus en vensterbanken."] },
    },
  ],
  leak: [
    {
      title: ["Water leak under the sink", "Fuite d'eau sous l'évier", "Waterlek onder de gootsteen"],
      description: [
        "Water drips from the pipe under the sink; the bottom of the cupboard is wet.",
        "De l'eau goutte du tuyau sous l'évier ; le fond du meuble est mouillé.",
        "Er druppelt water uit de leiding onder de gootsteen; de bodem van de kast is nat.",
      ],
      answers: { 0: "no" },
    },
    {
      title: ["Leaking tap", "Robinet qui fuit", "Lekkende kraan"],
      description: [
        "The tap keeps dripping even when it is closed tightly.",
        "Le robinet continue de goutter même bien fermé.",
        "De kraan blijft druppelen, ook als ze goed dichtgedraaid is.",
      ],
      answers: { 0: "no" },
    },
    {
      rooms: ["sanitary"],
      title: ["Toilet keeps running", "La chasse d'eau coule sans arrêt", "Toilet blijft doorlopen"],
      description: [
        "The cistern of the second toilet keeps filling; you can hear the water all the time.",
        "Le réservoir du deuxième WC se remplit sans cesse ; on entend l'eau couler en permanence.",
        "Het reservoir van het tweede toilet blijft vollopen; je hoort het water de hele tijd.",
      ],
      answers: { 0: "no" },
    },
    {
      title: ["Water dripping from the ceiling", "De l'eau goutte du plafond", "Water druppelt van het plafond"],
      description: [
        "Water drips from a ceiling tile near the door; we put a bucket under it.",
        "De l'eau goutte d'une dalle du plafond près de la porte ; nous avons mis un seau.",
        "Er druppelt water uit een plafondtegel bij de deur; we hebben er een emmer onder gezet.",
      ],
      answers: { 0: "yes" },
    },
  ],
  lighting: [
    {
      title: ["Light flickers in room {room}", "La lumière clignote dans le local {room}", "Licht flikkert in lokaal {room}"],
      description: [
        "The tube light above the desks flickers all day and gives headaches.",
        "Le néon au-dessus des bureaux clignote toute la journée et donne mal à la tête.",
        "De tl-lamp boven de bureaus flikkert de hele dag en geeft hoofdpijn.",
      ],
      answers: { 0: "1", 1: "no" },
    },
    {
      title: ["Two ceiling lamps are out", "Deux lampes du plafond ne fonctionnent plus", "Twee plafondlampen zijn stuk"],
      description: [
        "Two of the four ceiling lamps no longer light up; the back of the room is dark.",
        "Deux des quatre lampes du plafond ne s'allument plus ; le fond de la pièce est sombre.",
        "Twee van de vier plafondlampen branden niet meer; achteraan is het donker.",
      ],
      answers: { 0: "2", 1: "no" },
    },
    {
      title: ["Emergency exit sign is off", "Le panneau de sortie de secours est éteint", "Noodverlichting boven de uitgang is uit"],
      description: [
        "The green exit sign above the door of room {room} is no longer lit.",
        "Le panneau vert de sortie au-dessus de la porte du local {room} n'est plus éclairé.",
        "Het groene nooduitgangsbord boven de deur van lokaal {room} brandt niet meer.",
      ],
      answers: { 0: "1", 1: "yes" },
    },
    {
      title: ["Lights stay on all night", "Les lumières restent allumées toute la nuit", "Lichten blijven 's nachts branden"],
      description: [
        "The motion sensor does not switch the lights off: they are still on when we arrive in the morning.",
        "Le détecteur de mouvement n'éteint pas les lumières : elles sont encore allumées quand nous arrivons le matin.",
        "De bewegingsmelder doet de lichten niet uit: ze branden nog als we 's ochtends aankomen.",
      ],
      answers: { 0: "0", 1: "no" },
    },
  ],
  lab: [
    {
      item: "FMH",
      title: ["Fume hood alarm keeps sounding", "L'alarme de la hotte sonne sans arrêt", "Alarm van de zuurkast blijft afgaan"],
      description: [
        "The airflow alarm of the fume hood goes off as soon as the sash is opened.",
        "L'alarme de débit d'air de la hotte se déclenche dès qu'on ouvre la vitre.",
        "Het debietalarm van de zuurkast gaat af zodra het schuifraam opengaat.",
      ],
      answers: { 0: "no", 1: "no" },
    },
    {
      item: "FMH",
      title: ["Fume hood light does not work", "L'éclairage de la hotte ne fonctionne pas", "Verlichting van de zuurkast werkt niet"],
      description: [
        "The lamp inside the fume hood is out; we cannot see what we are doing.",
        "La lampe à l'intérieur de la hotte est éteinte ; on ne voit pas ce qu'on fait.",
        "De lamp in de zuurkast is stuk; we zien niet wat we doen.",
      ],
      answers: { 0: "no", 1: "no" },
    },
    {
      title: ["Eye-wash station empty", "Douche oculaire vide", "Oogdouche leeg"],
      description: [
        "The eye-wash bottles at the lab exit are empty.",
        "Les flacons de rinçage oculaire à la sortie du labo sont vides.",
        "De oogspoelflessen aan de uitgang van het labo zijn leeg.",
      ],
      answers: { 0: "no", 1: "no" },
    },
    {
      title: ["Chemical smell in the lab", "Odeur chimique dans le labo", "Chemische geur in het labo"],
      description: [
        "A strong solvent smell since this morning, even with the fume hoods on.",
        "Une forte odeur de solvant depuis ce matin, même avec les hottes en marche.",
        "Een sterke geur van solventen sinds vanmorgen, ook met de zuurkasten aan.",
      ],
      answers: { 0: "no", 1: "yes" },
    },
    {
      title: ["Gas valve does not close", "La vanne de gaz ne se ferme pas", "Gaskraan sluit niet"],
      description: [
        "The gas valve of bench 3 turns without closing; the main valve of the room is closed for now.",
        "La vanne de gaz de la paillasse 3 tourne dans le vide ; la vanne principale du local est fermée en attendant.",
        "De gaskraan van werkbank 3 draait door zonder te sluiten; de hoofdkraan van het lokaal is voorlopig dicht.",
      ],
      answers: { 0: "no", 1: "yes" },
    },
  ],
  network: [
    {
      title: ["No Wi-Fi in room {room}", "Pas de Wi-Fi dans le local {room}", "Geen wifi in lokaal {room}"],
      description: [
        "Laptops and phones do not see the campus network in this room.",
        "Les portables et les téléphones ne voient pas le réseau du campus dans ce local.",
        "Laptops en gsm's zien het campusnetwerk niet in dit lokaal.",
      ],
      answers: { 0: "eduroam", 1: "yes" },
    },
    {
      title: ["Wi-Fi is very slow", "Le Wi-Fi est très lent", "Wifi is heel traag"],
      description: [
        "Video calls keep freezing; a speed test gives less than 1 Mbit/s.",
        "Les appels vidéo se figent sans cesse ; un test de débit donne moins de 1 Mbit/s.",
        "Videogesprekken vallen telkens stil; een snelheidstest geeft minder dan 1 Mbit/s.",
      ],
    },
    {
      title: ["Network socket does not work", "La prise réseau ne fonctionne pas", "Netwerkaansluiting werkt niet"],
      description: [
        "The wall socket next to the second desk gives no connection, with two different cables.",
        "La prise murale à côté du deuxième bureau ne donne aucune connexion, avec deux câbles différents.",
        "De wandcontactdoos naast het tweede bureau geeft geen verbinding, met twee verschillende kabels.",
      ],
      answers: { 0: "Campus-Staff (wired)", 1: "no" },
    },
    {
      title: ["Cannot reach the guest network", "Impossible de se connecter au réseau invité", "Gastnetwerk niet bereikbaar"],
      description: [
        "Visitors connect to the guest network but never get the login page.",
        "Les visiteurs se connectent au réseau invité mais n'obtiennent jamais la page de connexion.",
        "Bezoekers verbinden met het gastnetwerk maar krijgen nooit de aanmeldpagina.",
      ],
      answers: { 0: "Campus-Guest", 1: "yes" },
    },
  ],
  printer: [
    {
      title: ["Paper jam in the printer", "Bourrage papier dans l'imprimante", "Papierstoring in de printer"],
      description: [
        "Paper jam in tray 2; opening the side door did not help.",
        "Bourrage dans le bac 2 ; ouvrir la porte latérale n'a rien changé.",
        "Papierstoring in lade 2; de zijdeur openen hielp niet.",
      ],
      answers: { 1: "yes" },
    },
    {
      title: ["Printer is out of toner", "L'imprimante n'a plus de toner", "Printer heeft geen toner meer"],
      description: [
        "The pages come out very pale and the printer asks for a new black toner.",
        "Les pages sortent très pâles et l'imprimante demande un nouveau toner noir.",
        "De pagina's komen er heel bleek uit en de printer vraagt om een nieuwe zwarte toner.",
      ],
      answers: { 1: "no" },
    },
    {
      title: ["Printer is offline", "L'imprimante est hors ligne", "Printer staat offline"],
      description: [
        "Nobody can print since this morning: the printer shows as offline on every computer.",
        "Personne ne peut imprimer depuis ce matin : l'imprimante apparaît hors ligne sur tous les ordinateurs.",
        "Niemand kan nog printen sinds vanmorgen: de printer staat offline op elke computer.",
      ],
      answers: { 1: "no" },
    },
    {
      title: ["Prints come out streaked", "Les impressions sortent rayées", "Afdrukken hebben strepen"],
      description: [
        "Every page has a grey streak down the middle.",
        "Chaque page a une traînée grise au milieu.",
        "Elke pagina heeft een grijze streep in het midden.",
      ],
      answers: { 1: "no" },
    },
  ],
  furniture: [
    {
      title: ["Office chair is broken", "Chaise de bureau cassée", "Bureaustoel is kapot"],
      description: [
        "The backrest of the chair at desk 4 came loose; it is not safe to sit on.",
        "Le dossier de la chaise du bureau 4 s'est détaché ; on ne peut plus s'y asseoir sans risque.",
        "De rugleuning van de stoel aan bureau 4 is losgekomen; erop zitten is niet veilig.",
      ],
      answers: { 1: "1", 2: "yes" },
    },
    {
      title: ["Desk wobbles", "Le bureau est bancal", "Bureau wiebelt"],
      description: [
        "The desk by the window wobbles; one of its feet is shorter than the others.",
        "Le bureau près de la fenêtre est bancal ; un des pieds est plus court que les autres.",
        "Het bureau bij het raam wiebelt; een van de poten is korter dan de andere.",
      ],
      answers: { 1: "1", 2: "no" },
    },
    {
      title: ["Height-adjustable desk is stuck", "Le bureau réglable en hauteur est bloqué", "Zit-sta-bureau zit vast"],
      description: [
        "The desk stays in its lowest position; the buttons make a click but nothing moves.",
        "Le bureau reste en position basse ; les boutons font un clic mais rien ne bouge.",
        "Het bureau blijft in de laagste stand; de knoppen klikken maar er beweegt niets.",
      ],
      answers: { 1: "1", 2: "no" },
    },
    {
      title: ["Meeting table leg is loose", "Un pied de la table de réunion est desserré", "Poot van de vergadertafel zit los"],
      description: [
        "One leg of the big table is loose and the table tilts when you lean on it.",
        "Un pied de la grande table est desserré et la table penche quand on s'appuie dessus.",
        "Een poot van de grote tafel zit los en de tafel helt over als je erop leunt.",
      ],
      answers: { 1: "1", 2: "yes" },
    },
    {
      title: ["Three chairs with torn seats", "Trois chaises au siège déchiré", "Drie stoelen met gescheurde zitting"],
      description: [
        "Three chairs of room {room} have torn seats with the foam coming out.",
        "Trois chaises du local {room} ont le siège déchiré et la mousse qui sort.",
        "Drie stoelen van lokaal {room} hebben een gescheurde zitting waar het schuim uitkomt.",
      ],
      answers: { 1: "3", 2: "no" },
    },
  ],
  fire: [
    {
      title: ["Fire extinguisher missing", "Extincteur manquant", "Brandblusser ontbreekt"],
      description: [
        "The bracket next to the stairs is empty: the extinguisher is gone.",
        "Le support à côté de l'escalier est vide : l'extincteur a disparu.",
        "De houder naast de trap is leeg: de brandblusser is weg.",
      ],
      answers: { 0: "no", 1: ["Extinguisher", "Extincteur", "Brandblusser"] },
    },
    {
      title: ["Emergency exit blocked", "Sortie de secours bloquée", "Nooduitgang geblokkeerd"],
      description: [
        "Boxes are stacked in front of the emergency exit at the end of the corridor.",
        "Des cartons sont empilés devant la sortie de secours au bout du couloir.",
        "Er staan dozen gestapeld voor de nooduitgang aan het einde van de gang.",
      ],
      answers: { 0: "no", 1: ["Exit", "Sortie", "Uitgang"] },
    },
    {
      title: ["Smoke detector keeps beeping", "Le détecteur de fumée bipe sans arrêt", "Rookmelder blijft piepen"],
      description: [
        "A short beep every minute from the smoke detector, probably a low battery.",
        "Un bip court chaque minute du détecteur de fumée, sans doute la pile.",
        "Elke minuut een korte piep van de rookmelder, waarschijnlijk de batterij.",
      ],
      answers: { 0: "no", 1: ["Alarm", "Alarme", "Alarm"] },
    },
    {
      title: ["Fire door does not close", "La porte coupe-feu ne se ferme pas", "Branddeur sluit niet"],
      description: [
        "The fire door of the corridor stays open; the door closer seems broken.",
        "La porte coupe-feu du couloir reste ouverte ; le ferme-porte semble cassé.",
        "De branddeur van de gang blijft openstaan; de deurdranger lijkt stuk.",
      ],
      answers: { 0: "no", 1: ["Fire door", "Porte coupe-feu", "Branddeur"] },
    },
  ],
};

/** A sentence an occupier may add to the description (the last one: none). */
export const DESCRIPTION_ENDINGS: Texts[] = [
  ["Noticed this morning when arriving.", "Constaté ce matin en arrivant.", "Vanmorgen bij aankomst opgemerkt."],
  ["It has been like this for a few days.", "C'est comme ça depuis quelques jours.", "Het is al een paar dagen zo."],
  ["Several colleagues complained about it.", "Plusieurs collègues s'en sont plaints.", "Verschillende collega's klaagden erover."],
  ["Happens mostly in the afternoon.", "Cela arrive surtout l'après-midi.", "Het gebeurt vooral in de namiddag."],
  ["", "", ""],
];

/** The vague first titles a manager later rewrites (event 7). */
export const VAGUE_TITLES: Texts[] = [
  ["Problem in room {room}", "Problème dans le local {room}", "Probleem in lokaal {room}"],
  ["Something is broken", "Quelque chose est cassé", "Er is iets kapot"],
  ["Please come and have a look", "Merci de venir voir", "Graag eens komen kijken"],
];

/** What a manager adds to a description after talking to the reporter (event 8). */
export const DESCRIPTION_ADDITIONS: Texts[] = [
  [
    "Reporter called back: it also happens in the room next door.",
    "Le déclarant a rappelé : cela arrive aussi dans le local voisin.",
    "De melder belde terug: het gebeurt ook in het lokaal ernaast.",
  ],
  [
    "Reachable on extension 2417 for access to the room.",
    "Joignable au poste 2417 pour l'accès au local.",
    "Bereikbaar op toestel 2417 voor toegang tot het lokaal.",
  ],
];

/** Work notes while an incident is handled (any type). */
export const PROGRESS_COMMENTS: Texts[] = [
  [
    "Had a look this morning: a spare part is needed, ordered today.",
    "Je suis passé ce matin : il faut une pièce de rechange, commandée aujourd'hui.",
    "Vanmorgen gaan kijken: er is een wisselstuk nodig, vandaag besteld.",
  ],
  [
    "Contractor contacted, visit planned for Thursday morning.",
    "Prestataire contacté, passage prévu jeudi matin.",
    "Aannemer gecontacteerd, bezoek gepland op donderdagochtend.",
  ],
  [
    "Temporary fix in place; I will check again on Monday.",
    "Solution provisoire en place ; je repasse lundi.",
    "Voorlopig hersteld; ik kijk maandag opnieuw.",
  ],
  [
    "Could the reporter tell us exactly where? I found nothing at first sight.",
    "Le déclarant peut-il préciser l'endroit exact ? Je n'ai rien trouvé à première vue.",
    "Kan de melder zeggen waar precies? Ik vond op het eerste gezicht niets.",
  ],
  [
    "Same problem as last month in the room next door.",
    "Même problème que le mois dernier dans le local voisin.",
    "Zelfde probleem als vorige maand in het lokaal ernaast.",
  ],
  [
    "Waiting for the key of the technical room.",
    "J'attends la clé du local technique.",
    "Ik wacht op de sleutel van het technisch lokaal.",
  ],
];

/** One work note per incident type. */
export const TYPE_COMMENTS: Record<IncidentTypeKey, Texts> = {
  equipment: [
    "The supplier's technician comes on Wednesday, under warranty.",
    "Le technicien du fournisseur passe mercredi, sous garantie.",
    "De technicus van de leverancier komt woensdag, onder garantie.",
  ],
  climate: [
    "Bled the radiator and freed the thermostatic valve.",
    "Radiateur purgé et vanne thermostatique débloquée.",
    "Radiator ontlucht en thermostaatkraan losgemaakt.",
  ],
  cleaning: [
    "Passed on to the cleaning company for tonight's round.",
    "Transmis à la société de nettoyage pour la tournée de ce soir.",
    "Doorgegeven aan het schoonmaakbedrijf voor de ronde van vanavond.",
  ],
  leak: [
    "Water supply closed; the plumber comes this afternoon.",
    "Arrivée d'eau coupée ; le plombier passe cet après-midi.",
    "Watertoevoer afgesloten; de loodgieter komt deze namiddag.",
  ],
  lighting: [
    "Replaced the tubes with LED ones.",
    "Tubes remplacés par des LED.",
    "Buizen vervangen door ledlampen.",
  ],
  lab: [
    "Lab closed until the safety officer has checked it.",
    "Labo fermé jusqu'au contrôle du conseiller en prévention.",
    "Labo gesloten tot de preventieadviseur het heeft nagekeken.",
  ],
  network: [
    "Access point restarted; IT will replace it if it happens again.",
    "Point d'accès redémarré ; l'IT le remplacera si cela se reproduit.",
    "Access point herstart; IT vervangt het als het opnieuw gebeurt.",
  ],
  printer: [
    "Cleared the jam and cleaned the rollers.",
    "Bourrage retiré et rouleaux nettoyés.",
    "Papierstoring verholpen en rollen gereinigd.",
  ],
  furniture: [
    "Removed the broken piece; a replacement comes from the storage room.",
    "Élément cassé retiré ; un remplacement vient de la réserve.",
    "Kapot meubel weggehaald; vervanging komt uit de opslag.",
  ],
  fire: [
    "Security informed; the fire safety company comes tomorrow.",
    "Sécurité prévenue ; la société de sécurité incendie passe demain.",
    "Bewaking verwittigd; het brandbeveiligingsbedrijf komt morgen.",
  ],
};

/** The last note when an incident is done. */
export const DONE_COMMENTS: Texts[] = [
  ["Fixed and tested together with the occupant.", "Réparé et testé avec l'occupant.", "Hersteld en samen met de gebruiker getest."],
  ["Part replaced, everything works again.", "Pièce remplacée, tout fonctionne à nouveau.", "Onderdeel vervangen, alles werkt weer."],
  [
    "Done. I also checked the other rooms on this floor.",
    "Terminé. J'ai aussi vérifié les autres locaux de l'étage.",
    "Klaar. Ik heb ook de andere lokalen op deze verdieping nagekeken.",
  ],
];

/** Why an incident was rejected. */
export const REJECTED_COMMENTS: Texts[] = [
  [
    "Not a facilities issue: forwarded to the IT helpdesk.",
    "Ce n'est pas du ressort des services techniques : transmis au helpdesk IT.",
    "Geen probleem voor de technische dienst: doorgestuurd naar de IT-helpdesk.",
  ],
  [
    "Could not find any problem on site; closing. Please report again if it comes back.",
    "Aucun problème constaté sur place ; clôturé. Signalez-le à nouveau si cela revient.",
    "Ter plaatse geen probleem gevonden; afgesloten. Meld het opnieuw als het terugkomt.",
  ],
];

/** The comment that carries a photo of the repair. */
export const PHOTO_COMMENT: Texts = [
  "Repaired, see the photo.",
  "Réparé, voir la photo.",
  "Hersteld, zie de foto.",
];

/** The manager's note on an incident closed as a duplicate ({shortId}: the kept one). */
export const DUPLICATE_COMMENT: Texts = [
  "Same problem as #{shortId}, already being handled there.",
  "Même problème que #{shortId}, déjà en cours de traitement.",
  "Zelfde probleem als #{shortId}, wordt daar al opgevolgd.",
];

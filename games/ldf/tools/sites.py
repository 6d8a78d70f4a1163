# name, lon, lat, size (t town 1, c city 2, m metropolis 3), forced hex or None
PLACES = [
 ("Rome",12.48,41.89,"m","3318"),("Ostia",12.29,41.75,"t","3318"),
 ("Londinium",-0.12,51.51,"t","2813"),("Eboracum",-1.08,53.96,"t",None),
 ("Treveri",6.64,49.75,"c","3114"),("Colonia Agrippina",6.96,50.94,"t",None),
 ("Lutetia",2.35,48.86,"t",None),("Durocortorum",4.03,49.26,"t",None),
 ("Lugdunum",4.83,45.76,"c",None),("Burdigala",-0.58,44.84,"t",None),
 ("Narbo",3.00,43.18,"t",None),("Massilia",5.37,43.30,"c",None),
 ("Tarraco",1.25,41.12,"c",None),("Corduba",-4.78,37.88,"c",None),
 ("Gades",-6.29,36.53,"t",None),("Emerita Augusta",-6.34,38.92,"t",None),
 ("Carthago Nova",-0.98,37.60,"t",None),("Caesaraugusta",-0.88,41.65,"t",None),
 ("Mediolanum",9.19,45.46,"c",None),("Aquileia",13.37,45.77,"c",None),
 ("Ravenna",12.20,44.42,"t",None),("Capua",14.25,41.08,"t",None),
 ("Tarentum",17.24,40.47,"t",None),("Syracusae",15.29,37.07,"c",None),
 ("Carales",9.11,39.22,"t",None),("Augusta Vindelicum",10.90,48.37,"t",None),
 ("Carnuntum",16.86,48.11,"t",None),("Aquincum",19.05,47.50,"t",None),
 ("Sirmium",19.61,44.97,"c",None),("Siscia",16.37,45.48,"t",None),
 ("Salona",16.48,43.53,"c",None),("Naissus",21.90,43.32,"t",None),
 ("Serdica",23.32,42.70,"t",None),("Thessalonica",22.94,40.64,"c",None),
 ("Athenae",23.73,37.98,"c",None),("Corinthus",22.93,37.90,"c",None),
 ("Nicopolis",20.73,39.00,"t",None),("Dyrrachium",19.45,41.32,"t",None),
 ("Philippopolis",24.75,42.15,"t",None),("Marcianopolis",27.58,43.30,"t",None),
 ("Tomis",28.65,44.18,"t",None),("Ephesus",27.34,37.94,"m",None),
 ("Smyrna",27.14,38.42,"c",None),("Pergamum",27.18,39.12,"c",None),
 ("Byzantium",28.98,41.01,"c","4119"),("Nicomedia",29.92,40.77,"m","4119"),
 ("Ancyra",32.86,39.93,"t",None),("Caesarea Mazaca",35.48,38.72,"c",None),
 ("Tarsus",34.90,36.92,"c",None),("Trapezus",39.72,41.00,"t",None),
 ("Sinope",35.15,42.02,"t",None),("Antiochia",36.16,36.20,"m",None),
 ("Edessa",38.79,37.15,"c",None),("Nisibis",41.22,37.07,"c",None),
 ("Emesa",36.72,34.73,"t",None),("Damascus",36.29,33.51,"c","4521"),
 ("Caesarea Maritima",34.89,32.50,"c",None),("Aelia Capitolina",35.23,31.78,"t",None),
 ("Petra",35.44,30.33,"t","4623"),("Palmyra",38.27,34.55,"c","4720"),
 ("Pelusium",32.55,31.04,"t",None),("Alexandria",29.90,31.20,"m",None),
 ("Memphis",31.25,29.85,"c",None),("Coptos",32.80,26.00,"t",None),
 ("Cyrene",21.86,32.82,"c",None),("Leptis Magna",14.29,32.64,"c",None),
 ("Carthago",10.32,36.85,"m",None),("Hadrumetum",10.64,35.83,"t",None),
 ("Cirta",6.61,36.37,"c",None),("Caesarea Mauretaniae",2.19,36.60,"t",None),
 ("Tingis",-5.80,35.77,"t",None),("Gortyn",24.95,35.06,"t",None),
 ("Salamis",33.90,35.18,"t",None),
 # trans-river provinces (6.5, 9.7): one TP each
 ("Sarmizegetusa",23.30,45.50,"t","3816"),("Sumelocenna",8.90,48.50,"t","3215"),
 # Parthia (3.3, 7.2): seven population-centre hexes (digest 5.3)
 ("Ctesiphon",44.58,33.09,"m","5020"),("Seleucia",44.52,33.10,"c","5020"),
 ("Hatra",42.72,35.58,"c",None),("Arbela",44.01,36.19,"t",None),
 ("Susa",48.25,32.19,"c",None),("Ecbatana",48.52,34.80,"c",None),
 ("Rhagae",51.43,35.59,"t",None),("Charax Spasinou",47.50,30.50,"t",None),
 # Caucasus (9.6): six hexes, one TP each
 ("Phasis",41.67,42.15,"t",None),("Dioscurias",41.00,43.00,"t",None),
 ("Harmozica",44.72,41.84,"t",None),("Cabalaca",46.60,41.30,"t",None),
 ("Artaxata",44.55,39.95,"t",None),("Tigranocerta",41.00,38.10,"t",None),
]
CAUCASUS = {"Phasis":"colchis","Dioscurias":"colchis","Harmozica":"iberia","Cabalaca":"iberia","Artaxata":"armenia","Tigranocerta":"armenia"}
PARTHIAN = {"Ctesiphon","Seleucia","Hatra","Arbela","Susa","Ecbatana","Rhagae","Charax Spasinou"}
# legions of AD 235: (legion, fortress, lon, lat, forced hex)
LEGIONS = [
 ("II Augusta","Isca",-2.95,51.61,None),("VI Victrix","Eboracum",-1.08,53.96,"2812"),("XX Valeria Victrix","Deva",-2.89,53.19,"2812"),
 ("I Minervia","Bonna",7.10,50.73,None),("XXX Ulpia","Vetera",6.45,51.65,None),
 ("VIII Augusta","Argentorate",7.75,48.58,None),("XXII Primigenia","Mogontiacum",8.27,50.00,None),
 ("III Italica","Castra Regina",12.10,49.02,None),("II Italica","Lauriacum",14.47,48.22,None),
 ("X Gemina","Vindobona",16.37,48.21,"3515"),("XIV Gemina","Carnuntum",16.86,48.11,"3515"),
 ("I Adiutrix","Brigetio",18.14,47.73,"3615"),("II Adiutrix","Aquincum",19.05,47.50,"3615"),
 ("IV Flavia","Singidunum",20.46,44.82,None),("VII Claudia","Viminacium",21.20,44.74,None),
 ("I Italica","Novae",25.39,43.60,None),("XI Claudia","Durostorum",27.27,44.12,None),
 ("XIII Gemina","Apulum",23.57,46.07,"3816"),("V Macedonica","Potaissa",23.76,46.56,"3816"),
 ("XII Fulminata","Melitene",38.35,38.35,"4619"),("XV Apollinaris","Satala",39.66,40.00,"4619"),
 ("IV Scythica","Zeugma",37.88,37.06,"4719"),("XVI Flavia","Sura",38.80,35.90,"4719"),
 ("III Gallica","Raphanea",36.20,35.00,None),
 ("I Parthica","Singara",41.86,36.32,None),("III Parthica","Rhesaena",40.00,36.85,None),
 ("III Cyrenaica","Bostra",36.48,32.52,None),
 ("X Fretensis","Aelia Capitolina",35.23,31.78,None),("VI Ferrata","Caparcotna",35.18,32.58,None),
 ("II Traiana","Nicopolis (Alexandria)",29.90,31.20,None),
 ("III Augusta","Lambaesis",6.26,35.49,None),("VII Gemina","Legio",-5.57,42.60,None),
 ("II Parthica","Albanum",12.66,41.73,None),
]
DOUBLE = {"2812","3515","3615","3816","4619","4719"}
NARROWS = ["2421","2913","3218","3219","3520","3619","4019","4119"]
RHINE = [(4.1,51.9),(5.85,51.84),(6.96,50.94),(7.6,50.36),(8.27,50.0),(8.47,49.49),(7.75,48.58),(7.59,47.56),(9.2,47.6)]
DANUBE = [(8.5,47.95),(9.99,48.4),(12.1,49.02),(13.46,48.57),(14.29,48.3),(16.37,48.21),(17.1,48.14),(18.74,47.79),(19.04,47.5),(18.68,45.99),(19.0,45.35),(20.46,44.82),(22.5,44.65),(22.87,44.0),(24.9,43.7),(25.95,43.85),(27.26,44.12),(28.05,45.43),(29.6,45.2)]

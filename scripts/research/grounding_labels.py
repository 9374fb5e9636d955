"""Hand labels for scripts/research/grounding_check.py: every fact the Writer extracted from dev.json, judged by hand."""

# Hand labels for every fact the runs above extracted (fact text -> label), judged against its source message:
#   ok    - everything it says, the message says about the person (copies, translations, clumsy grammar included);
#   noise - supported, but what the prompt says to skip (weather, traffic, thanks, one-off errands);
#   bad   - invented, garbled into a different claim, negated, or given to the wrong person.
# Grounding is judged on ok+noise ("supported") against bad; noise is counted separately for the prompt comparison.
OK, NOISE, BAD = "ok", "noise", "bad"
LABELS: dict[str, str] = {
    # 1 Hola! Soy Noemí. I'm trying out this app to keep track of things, a ver qué tal 😅
    "I'm trying out this app to keep track of things, a ver qué tal 😅": OK,
    "The user I'm trying out this app to keep track of things, a ver qué tal 😅": OK,
    "The user is trying out this app to keep track of things, a ver qué tal 😅": OK,
    # 2 vivo en Valencia, en el barrio de Ruzafa, y trabajo como farmacéutica en el hospital. Night shifts this week
    "I am a person who lives in Valencia, in the barrio of Ruzafa, and works as a farmacéutica in the hospital. Night shifts this week, ugh.": OK,
    "I am from Valencia, in the barrio de Ruzafa, and work as a farmacéutica in the hospital.": BAD,  # lives -> is from
    "Night shifts this week": OK,
    "The user en el barrio de Ruzafa": OK,
    "The user trabaja como farmacéutica en el hospital": OK,
    "The user vivo en Valencia": OK,
    "The user <fact 1>": BAD,  # the prompt's answer-shape placeholder, copied
    "The user <fact 2>": BAD,
    # 3 I have a cat called Pimentón, he's three... Cree que las 6 de la mañana es hora de desayunar.
    "The user Pimentón is a cat, he's three and extremely dramatic, and the 6 of the mañana is a holiday.": BAD,
    "The user has a cat called Pimentón, he's three and extremely dramatic. Cree que las 6 de la mañana es hora de desayunar.": OK,
    # 4 Speaking of breakfast: tostada con tomate y un café con avena, same as every day.
    "The user Tostada con Tomate y un café con Avena, same as every day": OK,
    "The user is speaking of breakfast": NOISE,
    "The user is the same as every day": BAD,
    "The user is tostada with tomatoes and a café with avens": BAD,  # the person *is* toast
    "The user is tostada with tomatoes and a coffee with avens": BAD,
    # 5 Llevo casi dos años siendo vegetariana, so please don't suggest recipes with meat or fish.
    "Llevo casi dos años siendo vegetariana, so please don't suggest recipes with meat or fish": OK,
    "The user Llevo casi dos años siendo vegetariana, so please don't suggest recipes with meat or fish.": OK,
    "The user has been vegetarian for nearly two years.": OK,
    "The user": BAD,  # says nothing
    # 6 My older sister Itziar keeps telling me to use some kind of planner, so this is me trying.
    "Itziar keeps telling me to use some kind of planner, so this is me trying": OK,
    "My older sister Itziar keeps telling me to use some kind of planner, so this is me trying": OK,
    "The user Itziar keeps telling me to use some kind of planner, so this is me trying": OK,
    # 7 Hace un frío raro para marzo, 9 grados esta mañana en la parada del bus.
    "The user Hace un frío raro para marzo, 9 grados esta mañana en la parada del bus.": NOISE,
    "The user has a cold weather on March 9, 2026, in the bus park.": BAD,  # 9 degrees became a date
    "The user is in a cold weather in March, with 9 degrees Celsius": NOISE,
    # 8 Took the ginger monster to the vet this morning for his yearly check-up.
    "The user Took the ginger monster to the vet this morning for his yearly check-up.": OK,
    "The user took the ginger monster to the vet this morning for his yearly check-up.": OK,
    # 9 El veterinario dice que está gordito: 6,4 kilos. He has to go on a diet...
    "The user El veterinario dice que está gordito: 6,4 kilos.": OK,
    "The user El veterinario has to go on a diet, poor thing, se acabaron las chuches.": BAD,  # the cat, not the vet
    "The user's pet has a weight of 6.4 kilograms, which is considered overweight.": OK,
    # 10 Also today I started a data analytics bootcamp, online, evenings and weekends. SQL, Python, dashboards...
    "I started a data analytics bootcamp online, evenings and weekends.": OK,
    "SQL, Python, dashboards, todo eso.": OK,
    "The user Started a data analytics bootcamp online, evenings and weekends.": OK,
    "The user Used SQL, Python, dashboards, and todo eso.": OK,
    # 11 Honestly I'm tired of the hospital shifts. Me gusta la farmacia pero quiero algo con horarios normales.
    "The user I'm tired of the hospital shifts.": OK,
    "The user Me gusta la farmacia pero quiero algo con horarios normales.": OK,
    "The user enjoys the farmacia.": OK,
    "The user is tired of hospital shifts.": OK,
    "The user loves the farmacia.": OK,
    "The user wants to have a normal schedule.": OK,
    # 12 soy alérgica a los anacardos. Nothing else, just cashews, pero es seria, llevo siempre el autoinyector.
    "The user Nothing else, just cashews, but es seria, llevo siempre el autoinyector.": OK,
    "The user The user alérgica a los anacardos.": OK,
    "The user is alérgica to anacardos.": OK,
    "The user is alérgica to the anacardos.": OK,
    # 13 El tráfico en la avenida del Puerto estaba imposible, el bus tardó 50 minutos.
    "El bus tardó 50 minutos": NOISE,
    "El tráfico en la avenida del Puerto estaba imposible": NOISE,
    "The bus tardó 50 minutos.": NOISE,
    "The user El tráfico en la avenida del Puerto estaba imposible, el bus tardó 50 minutos.": NOISE,
    # 14 Anyway, voy a hacer la compra. Thanks!
    "The user Thanks!": NOISE,
    "The user is going to make the purchase.": NOISE,
    "The user thanks for the purchase.": BAD,
    "The user wants to buy a product.": NOISE,
    # 15 Today I ran my first half marathon!! 2 horas y 4 minutos, my legs are dead.
    "The user ran his first half marathon in 2 hours and 4 minutes, my legs are dead.": OK,
    "The user ran their first half marathon, 2 hours and 4 minutes, my legs are dead.": OK,
    # 16 Itziar me mandó un audio gritando de emoción, she couldn't come this time.
    "The user Itziar me mandó un audio gritando de emoción, she couldn't come this time.": OK,
    "The user couldn't come this time": BAD,  # Itziar couldn't
    "The user couldn't come this time.": BAD,
    # 17 Also I started cello lessons last week, con una profesora que se llama Amparo. ...
    "I started cello lessons last week, con una profesora que se llama Amparo. I'm terrible but I love it.": OK,
    "The user I started cello lessons last week, con una profesora que se llama Amparo. I'm terrible but I love it.": OK,
    # 18 I applied for a junior data job in Edinburgh y me han dado entrevista para abril, once the bootcamp is over.
    "I applied for a junior data job in Edinburgh and have given interviews for April, once the bootcamp is over.": BAD,
    "The user applied for a junior data job in Edinburgh and gave an interview for April, once the bootcamp is over.": BAD,
    "The user applied for a junior data job in Edinburgh y me han dado entrevista para abril, once the bootcamp is over.": OK,
    # 19 Si sale bien tendría que dejar Valencia... all my friends are here, me da mucha pena.
    "Si sale bien tendría que dejar Valencia... all my friends are here, me da mucha pena.": OK,
    "The user The user Si sale bien tendría que dejar Valencia... all my friends are here, me da mucha pena.": OK,
    "The user's friends are here, me da mucha pena.": OK,
    # 20 El desayuno post-carrera: churros con chocolate. Zero regrets.
    "The user El desayuno post-carrera: churros con chocolate. Zero regrets.": OK,
    "The user ate a chocolate chip sandwich at the post-carrera.": BAD,
    "The user ate churros with chocolate.": OK,
    # 21 Está lloviendo a cántaros, which is so weird for Valencia.
    "The user Está lloviendo a cántaros, which is so weird for Valencia.": NOISE,
    "The user is lloviendo a cántaros, which is so weird for Valencia": BAD,  # the person is raining
    "Valencia is a city with a strange weather pattern.": NOISE,
    # 22 Hoy presenté el proyecto final del bootcamp! A dashboard on antibiotic stock in hospital pharmacies
    "The user The project final of the bootcamp! A dashboard on antibiotic stock in hospital pharmacies, obviously 😂": OK,
    "The user presented the final project of the bootcamp! A dashboard on antibiotic stock in hospital pharmacies, obviously 😂": OK,
    "The user presenté the project final of the bootcamp! A dashboard on antibiotic stock in hospital pharmacies, obviously 😂": OK,
    # 23 So that's the bootcamp done. Ha sido intensísimo, I barely slept, pero ha merecido la pena.
    "The user Ha sido intensísimo, I barely slept, pero ha merecido la pena": OK,
    "The user barely slept": OK,
    "The user had been intensísimo, I barely slept, but ha merecido la pena.": OK,
    "The user merecido la pena": OK,
    # 24 I got the job!! Junior data analyst at Haar Analytics, in Edinburgh. Empiezo a finales de mayo.
    "The user got the job!! Junior data analyst at Haar Analytics, in Edinburgh.": OK,
    "The user got the job!! Junior data analyst at Haar Analytics, in Edinburgh. Empiezo a finales de mayo.": OK,
    # 25 Así que nos mudamos a Escocia, the cat and me. Ya estoy mirando pisos en Leith.
    "The user The cat and me are from Escocia.": BAD,  # moving to, not from
    "The user The cat and me are from Leith.": BAD,
    "The user is looking at pisos in Leith.": OK,
    "The user is moving to Escocia, the cat and me.": OK,
    "The user is moving to Spain, the cat and me.": BAD,
    # 26 Mi hermana lleva toda la vida en Bilbao y no entiende lo de irse tan lejos, but she's happy for me.
    "Mi hermana lleva toda la vida en Bilbao y no entiende lo de irse tan lejos, pero she's happy for me": OK,
    "Mi hermana lleva toda la vida en Bilbao y no entiende lo de irse tan lejos, pero she's happy for me.": OK,
    "The user Mi hermana lleva toda la vida en Bilbao y no entiende lo de irse tan lejos, but she's happy for me.": OK,
    # 27 Mi sobrino Unai cumple 7 años el sábado que viene, tengo que pensar un regalo.
    "Mi sobrino Unai cumple 7 años el sábado que viene, tengo que pensar un regalo": OK,
    "Tengo que pensar un regalo": OK,
    "The user Mi sobrino Unai cumple 7 años el sábado que viene, tengo que pensar un regalo.": OK,
    "Unai cumple 7 años el sábado que viene": OK,
    # 28 The ginger furball knocked my coffee onto the laptop this morning. Sobrevivió el portátil, por suerte.
    "The ginger furball knocked my coffee onto the laptop this morning.": OK,
    "The ginger furball knocked my coffee onto the laptop this morning. Sobrevivió el portátil, por suerte.": OK,
    "The user The ginger furball knocked my coffee onto the laptop this morning. Sobrevivió el portátil, por suerte.": OK,
    # 29 Hace un día precioso, 22 grados. Me voy a la playa un rato.
    "The user Hace un día precioso, 22 grados. Me voy a la playa un rato.": NOISE,
    "The user is going to the beach.": NOISE,
    "The user is in a hot day with 22 degrees Celsius.": NOISE,
    # 30 he vuelto a comer pescado. My doctor said my iron was low and honestly I missed it, so I'm pescatarian now.
    "The user Pequeña novedad: he vuelto a comer pescado. My doctor said my iron was low and honestly I missed it, so I'm pescatarian now. Carne sigue sin, eso sí.": OK,
    "The user ate pescado": OK,
    "The user missed it": OK,
    "The user's doctor said iron was low": OK,
    "The user's iron was low": OK,
    # 31 Le mandé a Unai un arnés de escalada para niños por su cumple, he's obsessed with climbing like his aunt.
    "Le mandé a Unai un arnés de escalada para niños por su cumple, he's obsessed with climbing like his aunt.": OK,
    "The user Le mandé a Unai un arnés de escalada para niños por su cumple, he's obsessed with climbing like his aunt.": OK,
    # 32 Últimos días en el hospital. My last shift as a pharmacist is this Thursday, qué raro se me hace.
    "The user The user Últimos días en el hospital. My last shift as a pharmacist is this Thursday, qué raro se me hace.": OK,
    "The user's last shift as a pharmacist is Thursday, which raro se me hace.": OK,
    "The user's last shift as a pharmacist is this Thursday, which raro se me hace.": OK,
    # 33 Tenemos vuelo a Edimburgo a primeros de mayo. El gato viaja conmigo en cabina, he already hates the carrier.
    "The user The user tenemos vuelo a Edimburgo a primeros de mayo. El gato viaja conmigo en cabina, he already hates the carrier.": OK,
    "The user has a vacation to Edimburgo in the first month of May. The cat has already hated the carrier.": BAD,
    "The user has a vacation to Edimburgo in the first month, and the cat has already disliked the carrier.": BAD,
    # 34 Packing is chaos. Tengo cajas hasta en la bañera.
    "Packing is chaos": OK,
    "Tengo cajas hasta en la bañera": OK,
    "The user Tengo cajas hasta en la bañera.": OK,
    "The user packs is chaos. Tengo cajas hasta en la bañera.": OK,
    # 35 Breakfast today was just coffee standing up between boxes, no judgement please.
    "The user Breakfast today was just coffee standing up between boxes, no judgement please.": OK,
    "The user breakfast today was just coffee standing up between boxes, no judgement please.": OK,
    # 36 Qué calor hoy, por cierto. 27 grados en abril, esto no es normal.
    "The user 27.10.2027": BAD,
    "The user La temperatura actual en abril es de 27 grados Celsius, lo que no es normal.": NOISE,
    "The user is currently experiencing a mild temperature of 27 degrees Celsius in April, which is not considered normal.": BAD,  # hot, not mild
    "The user's current temperature is 27 degrees Celsius, which is not normal.": BAD,  # reads as a body temperature
    # 37 Hola desde Edimburgo!! We landed on Tuesday and I still can't believe it.
    "I landed on Tuesday and I still can't believe it.": OK,
    "The user We landed on Tuesday and I still can't believe it.": OK,
    "We landed on Tuesday and I still can't believe it.": OK,
    # 38 Pimi survived the flight, solo maulló dos veces. Now he sits at the window judging the seagulls.
    "Pimi survived the flight, solo maulló dos veces. Now he sits at the window judging the seagulls.": OK,
    "The user Pimi survived the flight, solo maulló dos veces. Now he sits at the window judging the seagulls.": OK,
    # 39 My friend Dunya came up from London to help me unpack, sin ella todavía estaría durmiendo en el suelo.
    "Dunya came up from London to help me unpack, sin ella todavía estaría durmiendo en el suelo": OK,
    "The user Dunya came up from London to help me unpack, sin ella todavía estaría durmiendo en el suelo.": OK,
    # 40 El piso está en Leith, cerca del puerto. Small, but the light is amazing.
    "Small, but the light is amazing.": OK,
    "The piso está en Leith, cerca del puerto.": OK,
    "The user <smaller 1>": BAD,
    "The user <smaller 2>": BAD,
    "The user The piso está en Leith, cerca del puerto. Small, but the light is amazing.": OK,
    "The user's light is amazing.": OK,
    "The user's location is Leith, near the port.": OK,
    "The user's small piso is located in Leith.": OK,
    # 41 Weather report: 11 grados en mayo y viento de lado. Me he comprado un chubasquero amarillo.
    "The user The user comprado un chubasquero amarillo.": OK,
    "The user bought a chubasquero amarillo.": OK,
    "The user has bought a chubasquero amarillo": OK,
    # 42 Still need to find a cello teacher here, echo de menos las clases con Amparo.
    "The user Still need to find a cello teacher here, echo de menos las clases con Amparo.": OK,
    "The user still needs to find a cello teacher here, echo de menos las clases con Amparo.": OK,
    # 43 Desayuno escocés de prueba: porridge con sal. Not a fan.
    "The user Desayuno escocés de prueba: porridge con sal. Not a fan.": OK,
    "The user ate a porridge with a sweet, savory flavor.": BAD,
    "The user is a fan of porridge with sal.": BAD,  # "Not a fan"
    # 44 Mañana empiezo en Haar Analytics! Nervous and excited a partes iguales.
    "The user Mañana empiezo en Haar Analytics! Nervous and excited a partes iguales.": OK,
    "The user started in Haar Analytics! Nervous and excited a parts iguales.": BAD,  # starts tomorrow
    "The user started their day at Haar Analytics, feeling nervous and excited.": BAD,
    # 45 I bought a second-hand bike to get to work, son 20 minutos junto al río. No more buses for me.
    "The user bought a second-hand bike to get to work, son 20 minutes together al río. No more buses for me.": OK,
    "The user bought a second-hand bike to get to work, son 20 minutes together with the river.": OK,
    # 46 Took my boy to the new vet for his check-up: 5,8 kilos! The diet worked, estoy orgullosísima.
    "The user Took my boy to the new vet for his check-up: 5,8 kilos! The diet worked, estoy orgullosísima.": OK,
    "The user took his boy to the new vet for his check-up, 5,8 kilos! The diet worked, estoy orgullosísima.": OK,
    # 47 My manager seems nice from the onboarding emails, we'll see.
    "My manager seems nice from the onboarding emails, we'll see.": OK,
    "The user My manager seems nice from the onboarding emails, we'll see.": OK,
    # 48 Ayer fui a un rocódromo en el centro, the bouldering here is way harder than back home.
    "Ayer fui a un rocódromo en el centro, the bouldering here is way harder than back home": OK,
    "I went to a bouldering camp in the center, which was much harder than back home.": OK,
    "The user Ayer fui a un rocódromo en el centro, the bouldering here is way harder than back home.": OK,
    # 49 Traffic here is nothing compared to Valencia, aunque los autobuses van llenísimos.
    "The user Traffic here is nothing compared to Valencia, aunque los autobuses van llenísimos.": NOISE,
    "Traffic here is nothing compared to Valencia, although the autobuses van llenísimos.": NOISE,
    # 50 Lunch: a salmon sandwich, porque ahora puedo 🐟
    "The user I can eat a salmon sandwich because now I can 🐟": OK,
    "The user can eat a salmon sandwich because now I can 🐟": OK,
    "The user can eat a salmon sandwich because now I can 🐟.": OK,
    # 51 Two weeks into the job and I love it. Estoy haciendo dashboards de consumo eléctrico para parques eólicos.
    "I love it": OK,
    "I'm making dashboards of consumption electricity for parques and ólicos": OK,
    "I'm making dashboards of consumption electricity for parques andólicos": OK,
    "The user Estoy haciendo dashboards de consumo eléctrico para parques eólicos": OK,
    "The user I love it": OK,
    # 52 Found a cello teacher! Se llama Fiona, she's from Aberdeen and very patient with my horrible vibrato.
    "The user Fiona is from Aberdeen and very patient with my horrible vibrato": OK,
    "The user found a cello teacher! Fiona is from Aberdeen and very patient with my horrible vibrato.": OK,
    "The user found a cello teacher! Se llama Fiona, she's from Aberdeen and very patient with my horrible vibrato.": OK,
    # 53 Dunya came back for the weekend y le hice arroz negro para darle las gracias por lo de la mudanza. ...
    "The user Dunya came back for the weekend y le hice arroz negro para darle las gracias por lo de la mudanza. Me salió bastante bien.": OK,
    "The user Me salió bastante bien": OK,
    "The user came back for the weekend": BAD,  # Dunya did
    "The user gave thanks for the mudanza": BAD,  # the user thanked Dunya for helping with the move
    "The user le hice arroz negro": OK,
    "The user para darle las gracias por lo de la mudanza": OK,
    "The user was very well": BAD,
    "The user y le hice arroz negro": OK,
    # 54 Mi gato ahora duerme encima del radiador, even in June. Scottish summer, I guess.
    "The user The user mi gato ahora duerme encima del radiador, even in June. Scottish summer, I guess.": OK,
    "The user's cat now sleeps encapulated in the radiator, even in June.": OK,
    "The user's pet now duersme encima del radiador, even in June. Scottish summer, I guess.": OK,
    # 55 Itziar y Unai vienen a verme en agosto, I need to plan things for a 7-year-old.
    "I need to plan things for a 7-year-old": OK,
    "Itziar y Unai vienen a verme en agosto": OK,
    "Itziar y Unai vienen a verme en agosto, I need to plan things for a 7-year-old": OK,
    "The user Itziar y Unai vienen a verme en agosto, I need to plan things for a 7-year-old.": OK,
    # 56 It's been raining all week, pero hoy salió el sol una hora y la gente estaba en la calle ...
    "It's been raining all week, but hoy salió el sol una hora y la gente estaba en la calle como si fuera verano.": NOISE,
    "The user It's been raining all week, pero hoy salió el sol una hora y la gente estaba en la calle como si fuera verano.": NOISE,
    # 57 Breakfast: porridge again, but with honey this time. Me estoy adaptando.
    "The user Breakfast: porridge again, but with honey this time. Me estoy adaptando.": OK,
    "The user is adapting to a new breakfast with honey.": OK,
    "The user is adapting.": OK,
}

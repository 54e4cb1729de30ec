"""The 2,000 most frequent English words of four letters or more, as pyspellchecker's English frequency list
(SCOWL and subtitle counts) ranks them: words too common to show, alone, that an answer drew on a passage.

Made with::

    from spellchecker import SpellChecker
    counts = SpellChecker(language="en").word_frequency.dictionary
    sorted(w for w in counts if w.isalpha() and w.isascii() and len(w) >= 4, key=lambda w: (-counts[w], w))[:2000]
"""

COMMON_WORDS = frozenset("""
    abandoned ability able about above absolutely accept accepted access accident according account accused across
    acting action actual actually address admit advantage advice afford afraid after again against agent agents
    agree agreed ahead alarm alien alive allow allowed almost alone along already also although always amazing
    american americans among amount ancient angry animal animals another answer answers anybody anymore anyone
    anything anywhere apart apartment apologize apparently appear appears appointment appreciate approach area argue
    armed arms army around arrange arrest arrested arrive arrived ashamed aside asked asking asks asleep assistant
    assume assure attack attacked attempt attend attention audience aunt available avoid aware away awful babies
    baby back badly ball balls band bank barely base based basic basically bastard bathroom battle beach bear beat
    beating beautiful beauty became because become becomes becoming been beer before began begging begin beginning
    behind being believe believed believes bell belong belongs below beneath beside besides best betrayed better
    between beyond bigger biggest bill billion bird birds birth birthday bitch bite black blame bleeding bless
    blessed blew blind block blood bloody blow blowing blown blue board boat bodies body bomb bone bones book books
    boring born borrow boss both bother bothering bottle bottom bought bound boyfriend boys brain brains brave bread
    break breakfast breaking breath breathe breathing bridge bright brilliant bring bringing brings british broke
    broken brother brothers brought brown bucks build building built bullet bullshit bunch buried burn burned
    burning bury business bust busy butt buying call called calling calls calm came camera cameras camp cannot
    capable captain card cards care career careful cares carried carry carrying cars case cases cash cast catch
    caught cause caused celebrate cell center certain certainly chain chair challenge chance chances change changed
    changes changing character charge charges chase chasing cheap check checked checking cheese chest chicken chief
    child children chinese chocolate choice choose chose chosen church city civil claim class clean cleaned cleaning
    clear cleared clearly clever client climb clock close closed closer closing clothes club coat code coffee cold
    collect college color come comes comfortable coming command commit committed common community company complete
    completely complicated computer concern concerned condition conference confirm connected connection consider
    considered considering contact continue continues contract control conversation convince convinced cook cooking
    cool cops copy corner correct corrected cost could count counting country couple courage course court cousin
    cover covered crack crap crash crazy cream create created creature credit crew crime criminal cross crossed
    crowd crush crying cure curious current cute cutting daddy damage damn damned dance dancing danger dangerous
    dare dark data date dating daughter days dead deal dealing dear death decent decide decided decision deep deeply
    defeat defend defense definitely deliver delivered demand deny department depends describe deserve deserves
    designed desire desk desperate despite destroy destroyed details detective developed device devil dick died
    difference different difficult dinner direct directly director dirty disappeared discovered discuss distance
    divorce doctor doctors does dogs doing dollars done door doors double doubt down dozen drag dragged draw dream
    dreams dress dressed drink drinking drinks drive driver driving drop dropped dropping drove drug drugs drunk
    dumb dump dumped during dust duty dying each earlier early earn earned ears earth easier easily east easy eaten
    eating edge effect eggs eight either else emergency emotional empty ended ends enemies enemy energy engine
    english enjoy enjoyed enjoying enough enter entered entire entirely escape escaped especially even evening event
    eventually ever every everybody everyone everything everywhere evidence evil exact exactly excellent except
    exchange excited exciting excuse expect expected expecting expensive experience expert explain extra
    extraordinary extremely eyes face faces facing fact fail failed fair faith fake fall fallen falling falls false
    familiar families family famous fancy farm fast faster fate father fault favor favorite fear federal feed feel
    feeling feelings feels feet fell fellow felt female fetch field fight fighting figure figured file files fill
    filled film final finally financial find finding finds fine finger fingers finish finished fire fired firing
    firm first fish fishing five fixed flat flew flight floor flowers flying focus folks follow followed following
    food fool foot football force forced forces foreign forever forget forgive forgot forgotten form former fortune
    forward fought found four fourth freak freaking free freedom french fresh friend friendly friends from front
    fuck fucked fucking fuel full fully funny further future gain game games gang gate gather gave general gentleman
    gentlemen german gets getting ghost giant gift girl girlfriend girls give given gives giving glad glass goddamn
    gods goes going gold golden gone gonna good goodbye gotta gotten government grab grabbed grand grateful grave
    great greater greatest green grew ground group grow growing grown guarantee guard guards guess guest guests
    guilty guns guys hair half hand handle hands handsome hang hanging happen happened happening happens happiness
    happy hard harder hardly harm hate hated hates have having head headed heading heads health healthy hear heard
    hearing heart hearts heat heaven heavy held hell hello help helped helping helps here hero herself hidden hide
    hiding high higher highest highly himself hire hired history hits hitting hold holding holds hole holy home
    honest honor hook hope hoped hoping horrible horse horses hospital hotel hour hours house huge human humans
    hundred hundreds hung hungry hunt hunting hurry hurt hurting hurts husband idea ideas identify idiot ignore
    illegal image imagine immediately important impossible including incredible incredibly indeed indian inform
    information innocent inside instead insurance intelligence intend interest interested interesting international
    interview into introduce invented investigation invite invited involved island issue italian itself jail
    japanese jealous jobs join joined joining joke journey judge jump jumped jury just justice keep keeping keeps
    kept keys kick kicked kidding kids kill killed killer killing kills kind kinda kinds king kiss kissed kitchen
    knew knife knock knocked know knowing knowledge known knows lack ladies lady laid land language large last late
    later latest laugh laughing launch lawyer lead leader leading leads learn learned learning least leave leaves
    leaving left legal legs less lesson lets letter letters letting level license lied lies lieutenant life lift
    light lights like liked likely likes line lines lips list listen listening literally little live lived lives
    living load local location lock locked lonely long longer look looked looking looks loose lord lose losing loss
    lost lots loud love loved lovely loves loving lower luck lucky lunch lying machine made magic main major make
    makes making male mama manage managed manager many mark market marriage married marry mass massive master match
    matter matters maybe mean meaning means meant meat medical medicine meet meeting member members memories memory
    mental mention mentioned merely mess message messed messing metal middle might mighty mile miles military milk
    million millions mind mine minute minutes miss missed missing mission mistake mixed model modern moment moments
    money monster month months mood moon more morning most mostly mother mountain mouth move moved moves movie
    movies moving much murder murdered music must myself mystery nail naked name named names nasty national natural
    nature near nearly necessary neck need needed needs neither nervous never news next nice night nights nine noble
    nobody noise none normal normally north nose note nothing notice noticed nowhere nuclear number numbers nurse
    obvious obviously ocean offer offered offering office officer officers official officially often okay older once
    ones only onto open opened opening opens operation opinion opportunity order ordered orders ordinary original
    other others otherwise ought ourselves outside outta over owner owns pack page paid pain paint painting pair
    pants paper papers parents park parking part particular particularly partner parts party pass passed passing
    past path patient patients paying peace people percent perfect perfectly perform perhaps permission person
    personal personally phone photo photos physical pick picked picking picture pictures piece pieces piss pissed
    pity place placed places plain plan plane planet planned planning plans plant plastic play played playing plays
    please pleased pleasure plenty plus point points poison police political pool poor popular position positive
    possible possibly post potential pounds power powerful powers practically practice pray precious prefer pregnant
    prepare prepared presence present president press pressure pretend pretending pretty prevent previously price
    pride prince prison private probably problem problems process professional program project promise promised
    proof proper property protect protecting proud prove provide public pull pulled pulling punch pure purpose push
    pushed pushing puts putting queen question questions quick quickly quiet quit quite race radio rain raise raised
    rare rate rather reach reached read reading ready real reality realize realized really reason reasons receive
    received recent recently recognize record records refuse refused regret regular relationship release released
    remain remains remember remembered remind reminds remove rent repeat replace report reported reports represent
    request rescue research respect responsibility responsible rest restaurant result results return returned
    returning revenge rich ride riding right rights ring ripped rise risk river road rock role roll romantic roof
    room rough round royal ruin ruined rule rules running runs rush russian sacrifice safe safety said sake same
    save saved saving saying says scare scared scary scene school science score screaming screw screwed search
    searching seat second seconds secret secrets section secure security seeing seek seem seemed seems seen sees
    sell selling send sending senior sense sent separate sergeant serial series serious seriously serve served
    service setting settle seven several sexual sexy shake shall shame shape share ship ships shirt shit shoes shoot
    shooting shop shopping short shot shots should shouting show showed shower showing shown shows shut sick side
    sight sign signal signed signs silly silver similar simple simply since sing singing single sister site sitting
    situation size skin sleep sleeping slept slip slow slowly small smart smell smells smile smoke smoking sneak
    snow social society soft sold soldier soldiers solid solve some somebody somehow someone someplace something
    sometimes somewhere song sons soon sooner sorry sort soul sound sounded sounds source south space spanish spare
    speak speaking speaks special specific speech speed spell spend spending spent spirit spit split spoke spoken
    spot spread spring square staff stage stand standing stands star staring stars start started starting starts
    state statement states station stay stayed staying stays steal stealing step steps stick still stock stole
    stolen stomach stone stood stop stopped stopping stops store stories storm story straight strange street streets
    strength strike strong stronger struck stuck student students study studying stuff stupid subject successful
    such suck sudden suddenly suffer suffered suffering suggest suicide suit summer super supply support suppose
    supposed sure surely surgery surprise surprised surveillance survive suspect swear sweet swim swing switch sword
    system table take taken takes taking talk talked talking talks tall tape target task taste taught teach teacher
    teaching team tear tears technology teeth telephone tell telling tells tend terms terrible terribly test text
    than thank thanks that their them themselves then theory there these they thing things think thinking thinks
    third this those thou though thought thoughts thousand thousands threat threatened three threw throat through
    throughout throw throwing thrown ticket tickets tied tight till time times tiny tired today together told
    tomorrow tongue tonight took total totally touch touched touching tough tour toward towards town trace track
    tracking trade traffic train trained training transfer trapped travel treasure treat treated tree trees trial
    trick tried tries trip troops trouble truck true truly trust trusted truth trying turn turned turning turns
    twenty twice type ugly unable uncle under understand understanding understood unit universe unless unlike until
    unusual upon upset upstairs used uses using usual usually valuable value very victim victims victory video view
    village violent visit voice vote wait waited waiting wake walk walked walking walks wall walls wanna want wanted
    wanting wants warm warn warned warning wash waste wasting watch watched watching water wave ways weak weapon
    weapons wear wearing weather wedding week weekend weeks weight weird welcome well went were west what whatever
    when whenever where wherever whether which while white whoever whole whom whose wide wife wild will willing wind
    window wine winning winter wipe wise wish wishes with within without witness woke woman women wonder wonderful
    wondering word words wore work worked working works world worried worry worse worst worth would wound wrap write
    writing written wrong wrote yeah year years yelling yellow yesterday young younger your yours yourself
""".split())

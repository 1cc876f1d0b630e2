/**
 * Rows of the IGN/CNIG "Nomenclátor Geográfico de Municipios y Entidades de
 * Población" (2024, CC-BY 4.0, attribution IGN/CNIG), in the plain layout
 * (ine_code,name,province_code,province,lat,lon,altitude_m,population). 48916
 * (Ziortza-Bolibar, created in 2023) is missing from the built-in registry.
 */
export const PLAIN_NOMENCLATOR = [
  'ine_code,name,province_code,province,lat,lon,altitude_m,population',
  '01001,Alegría-Dulantzi,01,Araba/Álava,42.83981158,-2.51243731,568,2975',
  '15030,A Coruña,15,A Coruña,43.37126587,-8.395501936,7,247376',
  '28079,Madrid,28,Madrid,40.40841191,-3.68760088,657,3332035',
  '38038,Santa Cruz de Tenerife,38,Santa Cruz de Tenerife,28.46285408,-16.24720629,1,209395',
  '41091,Sevilla,41,Sevilla,37.38620512,-5.99251368,11,684025',
  '48916,Ziortza-Bolibar,48,Bizkaia,43.25,-2.55,200,',
].join('\n');

/**
 * The same kind of rows in the layout of the nomenclator's MUNICIPIOS.csv as
 * downloaded: `;`-separated, decimal commas, an 11-character COD_INE, extra
 * columns. Encode it as Latin-1 to get the file users have.
 */
export const IGN_NOMENCLATOR = [
  'COD_INE;ID_REL;COD_GEO;COD_PROV;PROVINCIA;NOMBRE_ACTUAL;POBLACION_MUNI;SUPERFICIE;LONGITUD_ETRS89;LATITUD_ETRS89;ORIGENCOOR;ALTITUD;ORIGENALTITUD',
  '01001000000;1010010;10010;01;Araba/Álava;Alegría-Dulantzi;2975;1994,5;-2,51243731;42,83981158;Mapa;568;MDT25',
  '41091000000;1410910;410910;41;Sevilla;Sevilla;684025;14090;-5,99251368;37,38620512;Mapa;11;MDT25',
  '15030000000;1150300;150300;15;A Coruña;A Coruña;247376;3783;-8,395501936;43,37126587;Mapa;7;MDT25',
].join('\r\n');

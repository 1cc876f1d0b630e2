/**
 * The signature pad: draws with pointer events on the canvas and, on submit, puts the
 * drawing as a PNG data URL into the hidden field (empty when nothing was drawn). Plain
 * ES5 because it ships as written (no bundler); sent inline under the response's CSP nonce.
 */
export const SIGNATURE_PAD_SCRIPT = `(function(){
var c=document.getElementById('pad');if(!c||!c.getContext)return;
var ctx=c.getContext('2d'),drawn=false,down=false;ctx.lineWidth=2.5;ctx.lineCap='round';ctx.lineJoin='round';ctx.strokeStyle='#000';
function pos(e){var r=c.getBoundingClientRect();return{x:(e.clientX-r.left)*c.width/r.width,y:(e.clientY-r.top)*c.height/r.height};}
c.addEventListener('pointerdown',function(e){down=true;if(c.setPointerCapture)c.setPointerCapture(e.pointerId);var p=pos(e);ctx.beginPath();ctx.moveTo(p.x,p.y);e.preventDefault();});
c.addEventListener('pointermove',function(e){if(!down)return;var p=pos(e);ctx.lineTo(p.x,p.y);ctx.stroke();drawn=true;});
c.addEventListener('pointerup',function(){down=false;});c.addEventListener('pointercancel',function(){down=false;});
document.getElementById('pad-clear').addEventListener('click',function(){ctx.clearRect(0,0,c.width,c.height);drawn=false;});
document.getElementById('firmar').addEventListener('submit',function(){document.getElementById('firma_imagen_b64').value=drawn?c.toDataURL('image/png'):'';});
})();`;
